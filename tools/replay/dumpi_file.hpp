// SPDX-License-Identifier: Apache-2.0
// One rank's file of an SST DUMPI trace (`<prefix>-NNNN.bin`, what libdumpi writes and CODES and
// SST/macro replay), read record by record. simmpi does not link libdumpi (it is not in Debian):
// this is our own reader of DUMPI's binary format as DUMPI's sources define it
// (dumpi/common/io.c: the index, header and datatype sizes; dumpi/common/iodefs.h: the record
// header and the encodings; dumpi/common/dumpiio.c: each record's fields).
//
// The format, big-endian throughout: the file ends with an index of eight 64-bit words (a magic,
// then the offsets of the datatype sizes, function addresses, counter labels, header, body,
// footer and key-values). The header holds DUMPI's version; the body, after two 32-bit time
// offsets (CPU and wall seconds), is the records: a 16-bit label (the function's number in
// DUMPI's list), an 8-bit mask (bits 2 and 3: CPU and wall times present, bits 0-1: statuses
// present, bit 6: a 16-bit thread id follows, bit 7: counter values follow), the times (each a
// 16-bit second since the offset and a 32-bit nanosecond, start then stop), the counters, then the
// function's fields. Records carry no length: a record can be read, or skipped, only when its
// function's fields are known (DumpiFile::readable).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace simmpi::replay {

class DumpiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// DUMPI's own handle values (dumpi/common/constants.h), as they are in its records.
namespace dumpi {
inline constexpr int kAnySource = -1, kAnyTag = -1;
inline constexpr int kCommNull = 1, kCommWorld = 2, kCommSelf = 3;
inline constexpr int kRequestNull = 1;
inline constexpr int kFirstUserDatatype = 28, kFirstUserOp = 15;
}  // namespace dumpi

struct DumpiStatus {
  std::int32_t bytes = 0, source = 0, tag = 0;
};

// A record's fields in the order DUMPI writes them: scalars (integers, handles, roots) in
// `values`, integer arrays (requests, counts, displacements) in `arrays`, statuses in `statuses`
// (empty when the trace was recorded without them). A field DUMPI writes only at a collective's
// root is 0 (or an empty array) elsewhere.
struct DumpiRecord {
  int label = 0;
  std::uint64_t number = 0;  // from 1, in its rank's file
  std::uint16_t thread = 0;
  bool timed = false;  // wall-clock times present
  std::int64_t start_ns = 0, stop_ns = 0;
  bool has_statuses = false;
  std::vector<std::int64_t> values;
  std::vector<std::vector<std::int32_t>> arrays;
  std::vector<DumpiStatus> statuses;
};

class DumpiFile {
 public:
  // Reads `path`, rank `rank`'s file (its index, version and datatype sizes). Throws DumpiError.
  DumpiFile(std::string path, int rank);

  // The next record into `r`; false at the end of the stream. Throws DumpiError for a record it
  // cannot read (a truncated file, a label it does not know the fields of).
  bool next(DumpiRecord& r);
  // The size in bytes of DUMPI datatype `type` (the trace's table), -1 when it has none.
  std::int64_t type_size(int type) const;
  const std::string& path() const { return path_; }
  // "FILE: rank 3, record 17 (MPI_Wait) at 0.001234567 s" (since the rank's first record).
  std::string where(const DumpiRecord& r) const;
  [[noreturn]] void fail(const DumpiRecord& r, const std::string& what) const;

  // DUMPI's name of a label ("MPI_Send"), or "label N" for a number it does not have.
  static std::string name(int label);
  // The label of an MPI function's name, -1 when DUMPI has none.
  static int label(const std::string& name);
  // Whether the fields of `label`'s records are known (only those records can be read).
  static bool readable(int label);

 private:
  std::uint64_t u(int bytes);
  [[noreturn]] void truncated() const;

  std::string path_;
  int rank_;
  std::vector<unsigned char> data_;
  std::size_t pos_ = 0, end_ = 0;  // the body's next record, the body's end
  std::int64_t wall_offset_s_ = 0, first_ns_ = -1;
  std::vector<std::int64_t> sizes_;
  std::uint64_t number_ = 0;
  int current_ = -1;  // label of the record being read
};

}  // namespace simmpi::replay
