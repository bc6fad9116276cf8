// SPDX-License-Identifier: Apache-2.0
// A large text file written fast (the Chrome timeline's millions of events): text is appended to
// one buffer with the project's own integer and decimal formatting (no printf per field) and
// leaves in large blocks, gzip-compressed when the path ends in .gz, else as is.
//
// Compression is the writer's own (FixedDeflate) and follows what the writer knows: the text
// comes in units (a timeline's events), each begun with marks where a similar unit began (the
// lane's last event of the same kind, the kind's last on any lane) and written as the same
// sequence of pieces as that reference, with text between them that is the same as the
// reference's (same(): the kind's fixed text). That text goes out as a copy without being looked
// at, and so does a piece the writer knows is the same as the reference's (the lane's text
// against the lane's own last event, a call's arguments that did not change); a number is
// compared with the reference's number, its digits after the common ones going out as literals;
// any other piece is compared with the reference's, the numbers that differ in it as literals.
// A copy goes on across pieces, and into the next unit, while its distance stays the same.
// The reference is followed by that distance (how far back its text that corresponds to the
// first byte not compressed is), which text copied does not change. A number is formatted,
// stored, compared and compressed in one function (integer(), micros()) with its text in
// registers, and most numbers take one path: the copy in progress, already at the reference's
// distance, ends at its first digit that differs, and the digits from there go out as literals
// in the same call of the bit writer (FixedDeflate::copy_then_number). Compressing a unit's
// pieces together when it ends, with the state in locals, was tried: noting the pieces cost
// more than the loads and stores it saved (tools/bench/RESULTS.md, branch chrome8).
// General compressors spent most of a busy timeline's cost hashing every byte to find repeats
// that the writer knows already (ISA-L's igzip at level 1: ~5 instructions a byte, more than
// formatting the text), and comparing whole events to find where they differ cost half as much
// again (mispredicted exits of the comparison loops). The same text and pieces give the same
// bytes on every machine.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/observe/fixed_deflate.hpp"

namespace simmpi::runtime {

class TextOutput {
 public:
  // Where a unit began (see begin()), and where the lengths of its pieces are kept.
  struct Mark {
    std::uint64_t at = 0;  // 0: never (positions start far beyond the window from 0)
    std::uint32_t layout = 0;
  };

  // A text written often (a kind's opening text, a lane's text, a call's tail) kept with room
  // after it: one of at most Room bytes is copied whole in a few wide moves, without a call of
  // memcpy; a longer one is a string.
  template <std::size_t Room>
  class RoomyText {
   public:
    static constexpr std::size_t kRoom = Room;
    RoomyText() = default;
    explicit RoomyText(std::string_view s) : size_(s.size()) {
      if (s.size() <= Room)
        std::memcpy(bytes_.data(), s.data(), s.size());
      else
        long_ = s;
    }
    std::size_t size() const { return size_; }
    bool is_short() const { return size_ <= Room; }
    std::string_view view() const {
      return is_short() ? std::string_view(bytes_.data(), size_) : std::string_view(long_);
    }
    const char* room() const { return bytes_.data(); }  // Room bytes, when is_short()

   private:
    std::array<char, Room> bytes_{};
    std::size_t size_ = 0;
    std::string long_;
  };
  using ShortText = RoomyText<80>;  // opening texts (a flow end's, 73 bytes), a lane's text
  using TailText = RoomyText<128>;  // a call's arguments
  static constexpr std::size_t kMaxRoom = 128;

  TextOutput();
  // Opens `path`; returns false with `error` set (errno's text) when it cannot.
  bool open(const std::string& path, std::string* error);
  ~TextOutput();

  // The text until end() is one unit, compressed against `near` if a copy can reach it, else
  // `far`; both then mark this one. Returns whether the reference is `near` (and true when not
  // compressing: pieces are then only text).
  bool begin(Mark& near, Mark& far) {
    if (!deflate_) return true;
    return begin_unit(near, far);
  }
  void end() {
    if (in_unit_) end_unit();
  }
  // Text; in a unit, text that the reference has at the same place (the writer knows it).
  void same(std::string_view s) { append(s); }
  // Text; in a unit, a piece: one the writer knows is the same as the reference's piece at the
  // same place (`known_same`; begin() says which reference that is), or else one compared with
  // it (numbers that differ in it go out as literals, the rest as copies).
  void piece(std::string_view s, bool known_same) {
    if (in_unit_ && s.size() > kLongPiece) return long_piece(s);
    append(s);
    if (in_unit_) known_same ? same_piece(s.size()) : compared_piece(s.size());
  }
  void text(std::string_view s) { piece(s, false); }
  template <std::size_t Room>
  void same(const RoomyText<Room>& s) {
    append(s);
  }
  template <std::size_t Room>
  void piece(const RoomyText<Room>& s, bool known_same) {
    if (!s.is_short()) return piece(s.view(), known_same);
    append(s);
    if (in_unit_) known_same ? same_piece(s.size()) : compared_piece(s.size());
  }
  // A number; in a unit, a piece. Out of line, each one function with its formatting and its
  // compression inline: the number's text stays in registers from its digits to its codes.
  void integer(std::int64_t v);
  // `ps` picoseconds as microseconds, every picosecond kept and no trailing zero ("12.000345",
  // "12.5", "12"); in a unit, a piece.
  void micros(std::int64_t ps);
  // Closes the file; false (with `error` set) when any write failed.
  bool close(std::string* error);

  // integer() and micros() into `p`, which has room for kMaxNumber; return the end.
  static constexpr std::size_t kMaxNumber = 32;
  static char* format_integer(char* p, std::int64_t v);
  static char* format_micros(char* p, std::int64_t ps);

 private:
  static constexpr std::size_t kBlock = 1 << 20;
  static constexpr std::size_t kWindow = FixedDeflate::kWindow;
  // The position of the first byte: a Mark never written (at 0) is out of the window.
  static constexpr std::uint64_t kFirstPosition = 1 << 20;

  // A number's text of at most 16 bytes, in two words (the first byte lowest): most numbers
  // of a timeline (times below 100 s, ids below 10^8), formatted, compared with the
  // reference's and compressed in registers. Read back from the buffer instead, their bytes
  // would come from several stores not yet in the cache, which stalls the loads.
  struct NumberText {
    std::uint64_t low = 0, high = 0;
    unsigned size = 0;
  };
  // The last value below 10^8 written in decimal, and its text: the next is often the same (a
  // flow end in the microsecond of its slice's begin) or a little more (the next message's id).
  struct LastDecimal {
    std::uint32_t value = 0;
    unsigned size = 0;  // 0: none yet
    std::uint64_t text = 0;
  };
  // `u` (below 10^8) in decimal as decimal() makes it, from `last`'s text when `u` is its
  // value or a little more without a carry out of its last digit (that digit moved on); then
  // `u` is the last.
  [[gnu::always_inline]] static std::uint64_t next_decimal(std::uint32_t u, unsigned* size,
                                                           LastDecimal* last);
  [[gnu::always_inline]] static bool short_integer(std::int64_t v, NumberText* t,
                                                   LastDecimal* last = nullptr);
  [[gnu::always_inline]] static bool short_micros(std::int64_t ps, NumberText* t,
                                                  LastDecimal* last = nullptr);
  [[gnu::always_inline]] void number(char* p, const NumberText& t) {
    std::memcpy(p, &t.low, 8);
    std::memcpy(p + 8, &t.high, 8);
    used_ += t.size;
    if (in_unit_) number_piece(t.low, t.high, t.size);  // in registers
  }

  void append(std::string_view s) {
    if (s.size() > kBlock - used_) flush_block();
    if (s.size() > kBlock - kWindow) return write_long(s);
    std::memcpy(buffer_.data() + used_, s.data(), s.size());
    used_ += s.size();
  }
  template <std::size_t Room>
  void append(const RoomyText<Room>& s) {
    if (!s.is_short()) return append(s.view());
    if (s.size() > kBlock - used_) flush_block();
    std::memcpy(buffer_.data() + used_, s.room(), Room);  // into the room after the block
    used_ += s.size();
  }
  // Where the next `n` bytes go (n <= kMaxNumber), flushing first when the block is too full.
  char* room(std::size_t n) {
    if (kBlock - used_ < n) flush_block();
    return buffer_.data() + used_;
  }
  void write_long(std::string_view s);
  bool begin_unit(Mark& near, Mark& far);
  void end_unit();
  // The last `n` bytes of the buffer are a piece of the unit, after the text not yet compressed
  // (the same as the reference's): one the writer knows is the same as the reference's piece, a
  // number, or any text.
  void same_piece(std::size_t n) {  // inline: a lane's text, a call's tail
    if (reference_piece() && reference_->length[pieces_] != n) wrong_same_piece(n);
    add_piece(n);  // the same text as the reference's, compressed with what follows
  }
  void wrong_same_piece(std::size_t n) const;  // stops the run: the writer's claim was wrong
  // Most numbers: the copy in progress, at the reference's distance, ends at the first digit
  // that differs (3 to kMaxCopy bytes), and 1 to 8 digits differ. The others: other_number().
  [[gnu::always_inline]] void number_piece(std::uint64_t low, std::uint64_t high, std::size_t n);
  void other_number(std::uint64_t low, std::uint64_t high, std::size_t n, std::size_t same,
                    std::size_t theirs);
  void compared_piece(std::size_t n);
  // A piece longer than kLongPiece, which a flush may split: its text and the rest of the unit
  // go out as literals.
  static constexpr std::size_t kLongPiece = 4096;
  void long_piece(std::string_view s);
  void drop_reference() {
    reference_ = nullptr;
    reference_pieces_ = 0;
  }
  // Whether the reference has a piece that corresponds to the next (distance_ back) and a copy
  // can reach it; if not, the reference is dropped.
  bool reference_piece() {
    if (pieces_ < reference_pieces_ && distance_ <= kWindow) return true;
    drop_reference();  // the rest of the unit goes out as literals
    return false;
  }
  void add_piece(std::size_t n) {  // its length in the unit's layout (the count: end_unit())
    if (pieces_ < kMarkedPieces) unit_->length[pieces_] = static_cast<std::uint16_t>(n);
    ++pieces_;
  }
  // The `n` bytes at buffer_[encoded_], the same as those `distance` back, as a copy: most make
  // the copy in progress longer.
  void copy(std::uint64_t distance, std::size_t n) {
    if (distance == copy_distance_ &&
        copy_length_ + n < FixedDeflate::kMaxCopy + FixedDeflate::kMinCopy) {
      copy_length_ += static_cast<std::uint32_t>(n);
      encoded_ += n;
      return;
    }
    new_copy(distance, n);
  }
  void new_copy(std::uint64_t distance, std::size_t n);
  // The text not yet compressed in a unit, the same as the reference's distance_ back (or as
  // literals when there is no reference).
  void same_text(std::size_t n) {
    if (!reference_) return literals(n);
    copy(distance_, n);
  }
  void literals(std::size_t n);  // the `n` bytes at buffer_[encoded_]
  void end_copy();               // writes out the copy in progress
  std::uint64_t position(std::size_t offset) const { return base_ + offset; }
  const char* at(std::uint64_t position) const { return buffer_.data() + (position - base_); }
  void flush_block();
  void write_file(const void* data, std::size_t n);

  // The text not yet written out, after (when compressing) the window's worth of text before
  // it that copies read, and room to spare (words are compared, short texts copied whole).
  std::vector<char> buffer_ = std::vector<char>(kBlock + kMaxRoom);
  std::size_t used_ = 0;
  std::uint64_t base_ = kFirstPosition;  // the position of buffer_[0]
  std::FILE* file_ = nullptr;
  std::unique_ptr<FixedDeflate> deflate_;
  std::uint32_t crc_ = 0;  // of the text up to buffer_[crc_from_]
  std::size_t crc_from_ = 0;
  std::size_t encoded_ = 0;  // buffer_[encoded_] is the first byte not compressed
  // The lengths of the pieces of the last units, each kept until kLayouts units later (a mark
  // whose layout has been reused since is no reference): in one place, which a mark names, so
  // that ending a unit writes two words to each of its marks.
  static constexpr std::size_t kMarkedPieces = 8;  // a unit with more loses its reference there
  struct Layout {
    std::uint64_t at = 0;  // the unit's Mark::at
    std::uint16_t pieces = 0;
    std::array<std::uint16_t, kMarkedPieces> length{};  // at most kLongPiece
  };
  static constexpr std::size_t kLayouts = 1024;
  std::vector<Layout> layouts_ = std::vector<Layout>(kLayouts);
  std::uint64_t units_ = 0;
  // The unit being written: its marks, its reference (null: none, or lost), how far back the
  // reference's text that corresponds to buffer_[encoded_] is (the same for all the text
  // copied: it changes where a piece's length differs from the reference's), the unit's
  // layout and pieces.
  bool in_unit_ = false;
  Mark* near_ = nullptr;
  Mark* far_ = nullptr;
  const Layout* reference_ = nullptr;
  std::uint32_t reference_pieces_ = 0;  // its pieces (none without it), read at every piece
  std::uint64_t distance_ = 0;
  Layout* unit_ = nullptr;
  std::uint32_t pieces_ = 0;
  // pieces_ from a long piece on: its layout keeps the pieces before it.
  static constexpr std::uint32_t kAfterLongPiece = 1u << 30;
  std::uint32_t copy_distance_ = 0, copy_length_ = 0;  // the copy in progress (distance 0: none)
  bool failed_ = false;
  // The last integer (reused when a little more: ids; tried for times too, it cost the halo more
  // than it saved the ping-pong) and the whole microseconds of the last time (reused when equal).
  LastDecimal last_integer_, last_micros_;
};

}  // namespace simmpi::runtime
