// SPDX-License-Identifier: Apache-2.0
// The sources' pending generations (the time of each waiting source's next message), earliest
// first, for simmpi-traffic's driver (traffic_run.hpp). A million sources each waiting for its
// next message made the engine's heap a million nodes deep: every generation paid a pop and a
// push through levels that no cache holds. Generations fall in a known span [0, end) (sources
// generate nothing after the measurement window), so a calendar of equal buckets holds them
// instead: adding appends to the bucket of its time. When the clock reaches a bucket, its
// entries are sorted into a run (a counting sort on the time, then each group of equal counts
// sorted: linear for times spread as a Poisson process's are), and taking the earliest is
// reading the run's next entry. A generation added to the bucket already sorted (its time falls
// in it) waits in a small heap beside the run. A heap of the whole bucket instead cost ~300
// instructions per generation (a pop through 11 levels, mispredicted branches at each).
//
// Order: time, then source index, so simultaneous generations run in a fixed order.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace simmpi::traffic {

class GenerationCalendar {
 public:
  // Generations at times in [0, end_ps); about `expected` pending at once and `expected_total`
  // added in all (a hint: each bucket is given room for its share when first used, since the
  // generations of sources at a steady rate fall evenly over the span; a bucket grown by
  // doubling instead copied itself a dozen times into fresh memory).
  GenerationCalendar(std::int64_t end_ps, std::size_t expected, double expected_total = 0) {
    const std::int64_t buckets =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(expected / kPerBucket));
    width_ps_ = std::max<std::int64_t>(1, end_ps / buckets + 1);
    buckets_.resize(static_cast<std::size_t>(end_ps / width_ps_ + 1));
    // A tenth more than the mean share: a Poisson count of ~1,000 rarely exceeds it.
    const double share = expected_total / static_cast<double>(buckets_.size());
    bucket_room_ = static_cast<std::size_t>(std::min(1.1 * share + 16, 1e8));
  }

  bool empty() const { return size_ == 0; }
  // A generation of `src` at `t_ps`, no earlier than the last one taken.
  void add(std::int64_t t_ps, std::int32_t src) {
    ++size_;
    const auto b = static_cast<std::size_t>(t_ps / width_ps_);
    if (b < next_bucket_) {  // the bucket is sorted already, or taken
      late_.push_back(Entry{t_ps, src});
      std::push_heap(late_.begin(), late_.end(), Later{});
    } else {
      std::vector<Entry>& bucket = buckets_[b];
      if (bucket.capacity() == 0) bucket.reserve(bucket_room_);
      bucket.push_back(Entry{t_ps, src});
    }
  }
  // The earliest pending generation's time; the calendar must not be empty.
  std::int64_t top_ps() { return late_first() ? late_.front().ps : run_[head_].ps; }
  // The earliest pending generation's source; the calendar must not be empty.
  std::int32_t top_src() { return late_first() ? late_.front().src : run_[head_].src; }
  // Takes the earliest pending generation and returns its source.
  std::int32_t pop() {
    --size_;
    if (!late_first()) return run_[head_++].src;
    std::pop_heap(late_.begin(), late_.end(), Later{});
    const std::int32_t src = late_.back().src;
    late_.pop_back();
    return src;
  }
  // The source of a generation `ahead` places after the earliest in the sorted run, or -1 when the
  // run ends before: a hint for asking for memory early (generations added since may come first).
  std::int32_t src_ahead(std::size_t ahead) const {
    return head_ + ahead < run_.size() ? run_[head_ + ahead].src : -1;
  }

 private:
  static constexpr std::size_t kPerBucket = 2048;
  struct Entry {
    std::int64_t ps;
    std::int32_t src;
  };
  static bool before(const Entry& a, const Entry& b) {
    return a.ps != b.ps ? a.ps < b.ps : a.src < b.src;
  }
  // A type of its own, not a function: the heap's comparisons then inline.
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return before(b, a); }
  };

  // Whether the earliest pending generation is in the heap beside the run (else at the run's
  // head); sorts the next bucket first when both are empty. The calendar must not be empty.
  bool late_first() {
    if (head_ == run_.size() && late_.empty()) open_next();
    return !late_.empty() && (head_ == run_.size() || before(late_.front(), run_[head_]));
  }
  // Sorts the earliest bucket that holds anything into the run.
  void open_next() {
    while (buckets_[next_bucket_].empty()) ++next_bucket_;
    std::vector<Entry>& bucket = buckets_[next_bucket_];
    const std::int64_t start = static_cast<std::int64_t>(next_bucket_) * width_ps_;
    ++next_bucket_;
    // Counting sort on floor((t - start) * groups / width): monotone in t, so every group's times
    // are below the next group's, and only a group's own entries need ordering.
    const std::size_t n = bucket.size();
    const std::size_t groups = std::bit_ceil(n);
    const std::uint64_t scale =
        (std::uint64_t{groups} << 32) / static_cast<std::uint64_t>(width_ps_);
    auto group = [&](const Entry& e) {
      return std::min<std::size_t>(groups - 1,
                                   static_cast<std::uint64_t>(e.ps - start) * scale >> 32);
    };
    ends_.assign(groups, 0);
    for (const Entry& e : bucket) ++ends_[group(e)];
    std::size_t at = 0;
    for (std::uint32_t& c : ends_) {
      const std::size_t count = c;
      c = static_cast<std::uint32_t>(at);  // the group's start, until it is filled
      at += count;
    }
    run_.resize(n);
    for (const Entry& e : bucket) run_[ends_[group(e)]++] = e;
    std::size_t begin = 0;
    for (const std::uint32_t end : ends_) {
      sort_group(run_.data() + begin, run_.data() + end);
      begin = end;
    }
    head_ = 0;
    std::vector<Entry>().swap(bucket);
  }
  // Entries of one group: usually none, one or two; a long run of equal times (sources in step)
  // is sorted in n log n.
  static void sort_group(Entry* first, Entry* last) {
    if (last - first > 16) {
      std::sort(first, last, before);
      return;
    }
    for (Entry* i = first + 1; i < last; ++i) {
      const Entry e = *i;
      Entry* j = i;
      for (; j > first && before(e, j[-1]); --j) *j = j[-1];
      *j = e;
    }
  }

  std::int64_t width_ps_;
  std::size_t bucket_room_;  // entries a bucket is given room for when first used
  std::vector<std::vector<Entry>> buckets_;
  std::size_t next_bucket_ = 0;  // buckets before it are sorted or taken
  std::vector<Entry> run_;       // the sorted bucket, from head_ on
  std::size_t head_ = 0;
  std::vector<Entry> late_;          // a heap: added to the sorted bucket
  std::vector<std::uint32_t> ends_;  // of each group, while sorting
  std::size_t size_ = 0;
};

}  // namespace simmpi::traffic
