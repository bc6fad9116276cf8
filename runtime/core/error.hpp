// SPDX-License-Identifier: Apache-2.0
// The three kinds of failure (STYLE.md section 7): bad user input (ConfigError), a broken
// invariant (SIMMPI_ASSERT, on in every build type), and a fatal end of the simulation.
#pragma once

#include <stdexcept>
#include <string>

namespace simmpi {

// Bad configuration, platform file or command line. The message names the key, the value,
// what is allowed and, where possible, the fix.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// printf-style formatting into a std::string.
std::string strprintf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// Prints "simmpi: error: <message>" on stderr, flushes the application's output, and ends the
// process with `exit_status`. Never returns.
[[noreturn]] void fatal(int exit_status, const std::string& message);

// A line drawn in place on the terminal (the progress line, on stderr): fatal() and anyone
// printing a message erase it first, so the message starts on a clean line.
void set_status_line_drawn();
void erase_status_line();

[[noreturn]] void assert_failed(const char* cond, const char* file, int line,
                                const std::string& msg);

}  // namespace simmpi

#define SIMMPI_ASSERT(cond, ...)                                                            \
  do {                                                                                      \
    if (!(cond)) [[unlikely]]                                                               \
      ::simmpi::assert_failed(#cond, __FILE__, __LINE__, ::simmpi::strprintf(__VA_ARGS__)); \
  } while (0)
