// SPDX-License-Identifier: Apache-2.0
// Layouts of the block constructors (contiguous, vector, indexed, struct) and of resized/dup.
#include "libsimmpi/datatype/layouts.hpp"

#include <algorithm>

namespace simmpi::mpi {
namespace {

// Accumulates blocks of old types into a new type: data map, bounds, size, alignment and the
// reduction kind (kept only while every data-carrying block agrees on it).
class LayoutBuilder {
 public:
  void add(const Block& b) { add(*b.type, b.disp_bytes, b.copies, b.type->extent); }

  // `copies` of `old` at disp, disp + step, ... (a block's own copies are one extent apart; a
  // vector's blocks are one stride apart).
  void add(const Datatype& old, std::int64_t disp, std::int64_t copies, std::int64_t step) {
    align_ = std::max(align_, old.align);
    if (!kind_set_) set_kind(old);
    if (copies <= 0) return;
    add_bounds(old, disp, copies, step);
    if (old.size == 0) return;
    if (!has_data_)
      set_kind(old);
    else if (elem_ != old.elem || basic_size_ != old.basic_size)
      elem_ = Elem::None, basic_size_ = 0;
    has_data_ = true;
    map_.append(old.map, disp, copies, step);
  }

  std::unique_ptr<Datatype> finish(bool pad) {
    auto t = std::make_unique<Datatype>();
    t->elem = elem_;
    t->basic_size = basic_size_;
    t->align = align_;
    if (!has_bounds_) return t;  // no blocks: lb = ub = 0
    std::int64_t ub = ub_;
    if (pad && align_ > 1) {
      auto a = static_cast<std::int64_t>(align_);
      std::int64_t epsilon = (ub - lb_) % a;
      if (epsilon > 0) ub += a - epsilon;
    }
    t->map = std::move(map_);
    t->size = t->map.size();
    t->lb = lb_;
    t->extent = ub - lb_;
    t->true_lb = t->map.data_lb();
    t->true_extent = t->map.data_ub() - t->true_lb;
    t->contiguous = is_contiguous(*t);
    return t;
  }

  static bool is_contiguous(const Datatype& t) {
    if (t.size == 0) return t.extent == 0;
    return t.map.is_single_block() && t.map.runs()[0].disp == 0 &&
           t.extent == static_cast<std::ptrdiff_t>(t.size);
  }

 private:
  void set_kind(const Datatype& old) {
    elem_ = old.elem;
    basic_size_ = old.basic_size;
    kind_set_ = true;
  }

  // The copies span [disp + lb, disp + ub) shifted by 0 .. (copies - 1) * step.
  void add_bounds(const Datatype& old, std::int64_t disp, std::int64_t copies, std::int64_t step) {
    std::int64_t reach = (copies - 1) * step;
    std::int64_t lo = disp + old.lb + std::min<std::int64_t>(0, reach);
    std::int64_t hi = disp + old.lb + old.extent + std::max<std::int64_t>(0, reach);
    lb_ = has_bounds_ ? std::min(lb_, lo) : lo;
    ub_ = has_bounds_ ? std::max(ub_, hi) : hi;
    has_bounds_ = true;
  }

  TypeMap map_;
  bool has_bounds_ = false, has_data_ = false, kind_set_ = false;
  std::int64_t lb_ = 0, ub_ = 0;
  Elem elem_ = Elem::None;
  std::size_t basic_size_ = 0;
  std::size_t align_ = 1;
};

// A type with no data: what MPICH makes of a count of 0 or an old type of size 0.
std::unique_ptr<Datatype> zero_length(const Datatype& old) {
  LayoutBuilder b;
  b.add(Block{0, 0, &old});
  return b.finish(false);
}

// A copy of old's layout, sharing its data map; the copy is a derived type of its own.
std::unique_ptr<Datatype> clone(const Datatype& old) {
  auto t = std::make_unique<Datatype>();
  t->size = old.size;
  t->extent = old.extent;
  t->elem = old.elem;
  t->contiguous = old.contiguous;
  t->lb = old.lb;
  t->true_lb = old.true_lb;
  t->true_extent = old.true_extent;
  t->basic_size = old.basic_size;
  t->align = old.align;
  t->map = old.map;
  return t;
}

}  // namespace

std::unique_ptr<Datatype> contiguous_layout(std::int64_t count, const Datatype& old) {
  if (count == 0 || old.size == 0) return zero_length(old);
  LayoutBuilder b;
  b.add(Block{0, count, &old});
  return b.finish(false);
}

// `count` copies of one block, `stride_bytes` apart: one step for the map whatever the count
// (a vector of a million doubles is built in constant time when the block is one run).
std::unique_ptr<Datatype> hvector_layout(std::int64_t count, std::int64_t blocklength,
                                         std::int64_t stride_bytes, const Datatype& old) {
  if (count == 0 || blocklength == 0 || old.size == 0) return zero_length(old);
  std::unique_ptr<Datatype> block = contiguous_layout(blocklength, old);
  LayoutBuilder b;
  b.add(*block, 0, count, stride_bytes);
  return b.finish(false);
}

std::unique_ptr<Datatype> hindexed_layout(std::int64_t count, const Datatype& old,
                                          const std::function<Block(std::int64_t)>& block) {
  if (old.size == 0) return zero_length(old);
  LayoutBuilder b;
  bool empty = true;
  for (std::int64_t i = 0; i < count; ++i) {
    Block k = block(i);
    k.type = &old;
    if (k.copies > 0) empty = false;
    b.add(k);
  }
  return empty ? zero_length(old) : b.finish(false);
}

std::unique_ptr<Datatype> struct_layout(std::int64_t count,
                                        const std::function<Block(std::int64_t)>& block) {
  LayoutBuilder b;
  bool empty = true;
  for (std::int64_t i = 0; i < count; ++i) {
    Block k = block(i);
    if (k.copies > 0) empty = false;
    b.add(k);
  }
  return empty ? LayoutBuilder().finish(false) : b.finish(true);
}

std::unique_ptr<Datatype> resized_layout(const Datatype& old, std::int64_t lb,
                                         std::int64_t extent) {
  std::unique_ptr<Datatype> t = clone(old);
  t->lb = lb;
  t->extent = extent;
  t->contiguous = LayoutBuilder::is_contiguous(*t);
  return t;
}

std::unique_ptr<Datatype> dup_layout(const Datatype& old) {
  return clone(old);
}

}  // namespace simmpi::mpi
