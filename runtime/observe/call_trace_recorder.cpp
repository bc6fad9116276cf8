// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/call_trace_recorder.hpp"

#include <sys/stat.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "runtime/core/error.hpp"
#include "runtime/observe/call_trace_format.hpp"

namespace simmpi::runtime {

namespace ct = call_trace;

namespace {
void put_string(std::string& out, std::string_view s) {
  ct::put_int(out, static_cast<std::int64_t>(s.size()));
  for (char c : s) ct::put_int(out, static_cast<unsigned char>(c));
}
}  // namespace

CallTraceRecorder::CallTraceRecorder(const std::string& directory, const char* key, int ranks)
    : directory_(directory), ranks_(ranks), lanes_(static_cast<std::size_t>(ranks)) {
  if (::mkdir(directory.c_str(), 0777) != 0)
    throw ConfigError(strprintf(
        "%s = \"%s\": %s; a trace is never written over: remove it or choose another directory",
        key, directory.c_str(), errno == EEXIST ? "the directory exists" : std::strerror(errno)));
  const std::string meta = directory + "/" + ct::kMetaFileName;
  std::FILE* f = std::fopen(meta.c_str(), "w");
  if (!f)
    throw ConfigError(strprintf("%s = \"%s\": cannot write %s (%s)", key, directory.c_str(),
                                meta.c_str(), std::strerror(errno)));
  std::fprintf(f, "format simmpi call trace\nversion %u\nranks %d\n", ct::kVersion, ranks);
  std::fclose(f);
  cctx_ = ZSTD_createCCtx();
  // Level 1, the fastest: call traces compress well at any level. The checksum makes a damaged
  // chunk an error when read, never records of garbage.
  ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, 1);
  ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 1);
}

CallTraceRecorder::~CallTraceRecorder() {
  ZSTD_freeCCtx(cctx_);
}

void CallTraceRecorder::begin_record(int rank, int kind) {
  Lane& l = lanes_[static_cast<std::size_t>(rank)];
  if (l.pending.size() >= ct::kChunkBytes) flush(rank);
  ct::put_varint(l.pending, static_cast<std::uint64_t>(kind));
  ++records_;
}

// The own code since the last call that no compute fact explains: measured host time.
void CallTraceRecorder::own_code(int rank, SimTime until) {
  Lane& l = lanes_[static_cast<std::size_t>(rank)];
  const SimTime own = until - l.last_end - l.told;
  l.told = SimTime();
  if (own <= SimTime()) return;
  begin_record(rank, static_cast<int>(ct::Kind::Sleep));
  ct::put_int(l.pending, own.ps());
}

void CallTraceRecorder::call(const CallFacts& f) {
  if (f.rank < 0 || f.rank >= ranks_) return;
  Lane& l = lanes_[static_cast<std::size_t>(f.rank)];
  if (f.ordinal != 0) {  // a program thread's call: the replay has no threads
    const std::string what = std::string(f.name) + " from a program thread";
    unreplayable_.insert(what);
    begin_record(f.rank, static_cast<int>(ct::Kind::Untraced));
    put_string(l.pending, what);
    return;
  }
  own_code(f.rank, f.begin);
  if (f.record_kind >= 0 && f.record) {
    begin_record(f.rank, f.record_kind);
    for (std::int64_t v : *f.record) ct::put_int(l.pending, v);
  } else {
    if (!ct::is_local_call(f.name)) unreplayable_.insert(f.name);
    begin_record(f.rank, static_cast<int>(ct::Kind::Untraced));
    put_string(l.pending, f.name);
  }
  l.last_end = f.end;
}

void CallTraceRecorder::compute(const ComputeFacts& f) {
  if (f.ordinal != 0 || f.rank < 0 || f.rank >= ranks_) return;
  Lane& l = lanes_[static_cast<std::size_t>(f.rank)];
  l.told += f.time;
  if (f.kernel < 0) {
    begin_record(f.rank, static_cast<int>(ct::Kind::Sleep));
    ct::put_int(l.pending, f.time.ps());
    return;
  }
  if (l.kernels.insert(f.kernel).second) {
    begin_record(f.rank, static_cast<int>(ct::Kind::Kernel));
    ct::put_int(l.pending, f.kernel);
    put_string(l.pending, f.kernel_name);
  }
  begin_record(f.rank, static_cast<int>(ct::Kind::Compute));
  for (std::int64_t v : {std::int64_t{f.kernel}, ct::double_bits(f.ops), ct::double_bits(f.bytes),
                         f.m, f.n, f.k, f.time.ps()})
    ct::put_int(l.pending, v);
}

void CallTraceRecorder::write_file(int rank, const std::string& bytes) {
  if (!error_.empty()) return;
  const std::string path = directory_ + "/" + ct::rank_file_name(rank);
  // Opened for each chunk: a run of 100,000 ranks cannot hold a file open per rank.
  std::FILE* f = std::fopen(path.c_str(), "ab");
  bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (f && std::fclose(f) != 0) ok = false;
  if (!ok) error_ = strprintf("cannot write %s (%s)", path.c_str(), std::strerror(errno));
  bytes_written_ += bytes.size();
}

void CallTraceRecorder::flush(int rank) {
  Lane& l = lanes_[static_cast<std::size_t>(rank)];
  std::string out;
  if (!l.started) {
    out.append(ct::kMagic, sizeof ct::kMagic);
    ct::put_u32(out, ct::kVersion);
    ct::put_u32(out, static_cast<std::uint32_t>(rank));
    ct::put_u32(out, static_cast<std::uint32_t>(ranks_));
    l.started = true;
  }
  if (!l.pending.empty()) {
    compressed_.resize(ZSTD_compressBound(l.pending.size()));
    const std::size_t n = ZSTD_compress2(cctx_, compressed_.data(), compressed_.size(),
                                         l.pending.data(), l.pending.size());
    SIMMPI_ASSERT(!ZSTD_isError(n), "zstd compresses a chunk of %zu bytes: %s", l.pending.size(),
                  ZSTD_getErrorName(n));
    ct::put_u32(out, static_cast<std::uint32_t>(l.pending.size()));
    ct::put_u32(out, static_cast<std::uint32_t>(n));
    out.append(compressed_.data(), n);
    l.pending.clear();
  }
  write_file(rank, out);
}

bool CallTraceRecorder::finish(const std::vector<SimTime>& end, std::string* error) {
  for (int r = 0; r < ranks_; ++r) {
    if (static_cast<std::size_t>(r) < end.size()) own_code(r, end[static_cast<std::size_t>(r)]);
    begin_record(r, static_cast<int>(ct::Kind::End));
    flush(r);
    std::string().swap(lanes_[static_cast<std::size_t>(r)].pending);
  }
  if (error && !error_.empty()) *error = error_;
  return error_.empty();
}

}  // namespace simmpi::runtime
