// SPDX-License-Identifier: Apache-2.0
// Counter-based pseudo-random numbers for the machine models: a value is a pure function of
// (runtime.seed, what is being decided), so every choice is reproducible bit for bit and needs
// no generator state to carry around (routing salts, random placement).
#pragma once

#include <cstdint>

namespace simmpi::hardware {

// SplitMix64's finalizer (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014): a bijection of 64-bit words that mixes every input bit.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

constexpr std::uint64_t mix64(std::uint64_t a, std::uint64_t b) {
  return mix64(mix64(a) ^ b);
}

// A value in [0, n) from 64 random bits (Lemire's multiply-shift; bias below 2^-32 for the n
// used here). n > 0.
constexpr std::uint64_t below(std::uint64_t bits, std::uint64_t n) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(bits) * n) >> 64);
}

}  // namespace simmpi::hardware
