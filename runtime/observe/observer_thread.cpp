// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/observer_thread.hpp"

#include <pthread.h>
#include <sched.h>
#include <signal.h>

#include <cstring>
#include <type_traits>

namespace simmpi::runtime {
namespace {

// What an entry tells, in its first word with the entry's size in words.
enum class Told : std::uint32_t { kCall, kRendezvous, kCompute, kThreadStarted, kThreadJoined };

constexpr std::size_t words_of(std::size_t bytes) {
  return (bytes + 7) / 8;
}

// An entry's first word.
constexpr std::uint64_t entry_head(Told what, std::size_t words) {
  return static_cast<std::uint64_t>(what) | static_cast<std::uint64_t>(words) << 32;
}

// A call's variable parts, after its CallFacts: the lengths of its lists (kAbsent: the pointer
// was null) and what its communicator's name is.
struct CallParts {
  static constexpr std::uint32_t kAbsent = ~0u;
  std::uint32_t sent = kAbsent, received = kAbsent, probed = kAbsent;
  std::uint32_t record = kAbsent, records_after = kAbsent;
  enum Name : std::uint32_t { kNone, kSame, kNew } name = kNone;
  std::uint32_t name_size = 0;  // kNew: the bytes after the lists
};

template <class T>
std::uint32_t length_of(const std::vector<T>* v) {
  return v ? static_cast<std::uint32_t>(v->size()) : CallParts::kAbsent;
}

template <class T>
std::size_t words_for(std::uint32_t n) {
  return n == CallParts::kAbsent ? 0 : words_of(n * sizeof(T));
}

// Copies `v`'s elements to `p` when it is there; returns the words after them. An empty list
// (most of a call's) costs no call of memcpy.
template <class T>
std::uint64_t* put_list(std::uint64_t* p, const std::vector<T>* v) {
  if (!v) return p;
  const std::size_t n = v->size();
  if (n > 0) std::memcpy(p, v->data(), n * sizeof(T));
  return p + words_of(n * sizeof(T));
}

}  // namespace

// The list of `n` elements at `p`, as a vector for the facts (null when it was absent); moves `p`
// past it. A list of one goes into a vector that always has one element, and none is an empty
// vector: most calls' lists are either, and neither then changes a vector's size.
template <class T>
inline const std::vector<T>* ObserverThread::List<T>::take(const std::uint64_t*& p,
                                                           std::uint32_t n) {
  if (n == CallParts::kAbsent) return nullptr;
  const auto* first = reinterpret_cast<const T*>(p);
  p += words_of(n * sizeof(T));
  if (n == 0) return &none;
  if (n == 1) {
    std::memcpy(static_cast<void*>(one.data()), first, sizeof(T));
    return &one;
  }
  many.assign(first, first + n);
  return &many;
}

namespace {

// Facts copied as they are: plain data, whose pointers (names) live as long as the run.
template <class F>
void put_plain(std::uint64_t* p, Told what, const F& f) {
  static_assert(std::is_trivially_copyable_v<F>);
  p[0] = entry_head(what, 1 + words_of(sizeof f));
  std::memcpy(p + 1, &f, sizeof f);
}

template <class F>
F take_plain(const std::uint64_t* p) {
  F f;
  std::memcpy(static_cast<void*>(&f), p + 1, sizeof f);
  return f;
}

static_assert(std::is_trivially_copyable_v<CallFacts> && std::is_trivially_copyable_v<MessageLink>,
              "facts are copied as bytes");

}  // namespace

ObserverThread::ObserverThread(Observer& observer)
    : observer_(observer),
      wants_messages_(observer.wants_messages()),
      wants_records_(observer.wants_records()),
      filling_(std::make_unique<Block>()),
      blocks_(1) {
  filling_->words.resize(kBlockWords);
  // The thread takes none of the process's signals (the wall limit's alarm, a ^C): their
  // handlers are the simulation's. It inherits the mask it starts with.
  sigset_t all_but_faults, before;
  sigfillset(&all_but_faults);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigdelset(&all_but_faults, sig);
  pthread_sigmask(SIG_BLOCK, &all_but_faults, &before);
  thread_ = std::thread([this] { run(); });
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

ObserverThread::~ObserverThread() {
  if (stopped_) return;
  drop_ = true;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ending_ = true;
  }
  has_full_.notify_one();
  thread_.join();
}

bool ObserverThread::host_has_spare_cpu() {
  cpu_set_t cpus;
  return sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 1;
}

std::uint64_t* ObserverThread::room_after_hand_over(std::size_t words) {
  if (filling_->used > 0) hand_over();
  if (filling_->words.size() < words) filling_->words.resize(words);  // one entry, larger
  std::uint64_t* p = filling_->words.data() + filling_->used;
  filling_->used += words;
  return p;
}

void ObserverThread::hand_over() {
  std::unique_lock<std::mutex> lock(mutex_);
  full_.push_back(std::move(filling_));
  has_full_.notify_one();
  if (free_.empty() && blocks_ < kBlocksInFlight) {
    ++blocks_;
    lock.unlock();
    filling_ = std::make_unique<Block>();
    filling_->words.resize(kBlockWords);
    return;
  }
  has_free_.wait(lock, [this] { return !free_.empty(); });
  filling_ = std::move(free_.front());
  free_.pop_front();
}

void ObserverThread::call(const CallFacts& f) {
  CallParts parts;
  parts.sent = length_of(f.sent);
  parts.received = length_of(f.received);
  parts.probed = length_of(f.probed);
  if (wants_records_) {  // else the MPI layer's lists are not the observer's business
    parts.record = length_of(f.record);
    parts.records_after = length_of(f.records_after);
  }
  if (f.comm_name) {
    // The stamp changes whenever the name may have; 0 says nothing, so the name goes along.
    if (f.comm_name_stamp != 0 && f.comm_name_stamp == sent_name_stamp_) {
      parts.name = CallParts::kSame;
    } else {
      parts.name = CallParts::kNew;
      parts.name_size = static_cast<std::uint32_t>(f.comm_name->size());
      sent_name_stamp_ = f.comm_name_stamp;
    }
  }
  const std::size_t words =
      1 + words_of(sizeof f) + words_of(sizeof parts) + words_for<MessageLink>(parts.sent) +
      words_for<MessageLink>(parts.received) + words_for<MessageLink>(parts.probed) +
      words_for<std::int64_t>(parts.record) + words_for<std::int64_t>(parts.records_after) +
      words_of(parts.name_size);
  std::uint64_t* p = room(words);
  p[0] = entry_head(Told::kCall, words);
  std::memcpy(p + 1, &f, sizeof f);
  p += 1 + words_of(sizeof f);
  std::memcpy(p, &parts, sizeof parts);
  p += words_of(sizeof parts);
  p = put_list(p, f.sent);
  p = put_list(p, f.received);
  p = put_list(p, f.probed);
  if (wants_records_) {
    p = put_list(p, f.record);
    p = put_list(p, f.records_after);
  }
  if (parts.name == CallParts::kNew) std::memcpy(p, f.comm_name->data(), parts.name_size);
}

void ObserverThread::rendezvous_matched(std::uint64_t id, SimTime at) {
  std::uint64_t* p = room(3);
  p[0] = entry_head(Told::kRendezvous, 3);
  p[1] = id;
  std::memcpy(p + 2, &at, sizeof at);
}

void ObserverThread::compute(const ComputeFacts& f) {
  put_plain(room(1 + words_of(sizeof f)), Told::kCompute, f);
}

void ObserverThread::thread_started(const ThreadStart& f) {
  put_plain(room(1 + words_of(sizeof f)), Told::kThreadStarted, f);
}

void ObserverThread::thread_joined(const ThreadJoin& f) {
  put_plain(room(1 + words_of(sizeof f)), Told::kThreadJoined, f);
}

void ObserverThread::stop() {
  stopped_ = true;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (filling_->used > 0) full_.push_back(std::move(filling_));
    ending_ = true;
  }
  has_full_.notify_one();
  thread_.join();
  if (failed_) std::rethrow_exception(error_);
}

void ObserverThread::run() {
  for (;;) {
    std::unique_ptr<Block> b;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      has_full_.wait(lock, [this] { return !full_.empty() || ending_; });
      if (full_.empty() || drop_) return;  // ending, and everything told (or dropped)
      b = std::move(full_.front());
      full_.pop_front();
    }
    if (!failed_) {
      try {
        tell(*b);
      } catch (...) {  // kept for stop(); what comes after is dropped
        error_ = std::current_exception();
        failed_ = true;
      }
    }
    b->used = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      free_.push_back(std::move(b));
    }
    has_free_.notify_one();
  }
}

void ObserverThread::tell(const Block& b) {
  const std::uint64_t* p = b.words.data();
  const std::uint64_t* const end = p + b.used;
  while (p < end) {
    const auto what = static_cast<Told>(p[0] & 0xFFFFFFFF);
    const std::size_t words = p[0] >> 32;
    switch (what) {
      case Told::kCall:
        tell_call(p);
        break;
      case Told::kRendezvous: {
        SimTime at;
        std::memcpy(static_cast<void*>(&at), p + 2, sizeof at);
        observer_.rendezvous_matched(p[1], at);
        break;
      }
      case Told::kCompute:
        observer_.compute(take_plain<ComputeFacts>(p));
        break;
      case Told::kThreadStarted:
        observer_.thread_started(take_plain<ThreadStart>(p));
        break;
      case Told::kThreadJoined:
        observer_.thread_joined(take_plain<ThreadJoin>(p));
        break;
    }
    p += words;
  }
}

void ObserverThread::tell_call(const std::uint64_t* p) {
  CallFacts& f = facts_;
  std::memcpy(static_cast<void*>(&f), p + 1, sizeof f);
  p += 1 + words_of(sizeof f);
  CallParts parts;
  std::memcpy(static_cast<void*>(&parts), p, sizeof parts);
  p += words_of(sizeof parts);
  f.sent = sent_.take(p, parts.sent);
  f.received = received_.take(p, parts.received);
  f.probed = probed_.take(p, parts.probed);
  f.record = record_.take(p, parts.record);
  f.records_after = records_after_.take(p, parts.records_after);
  if (parts.name == CallParts::kNew)
    comm_name_.assign(reinterpret_cast<const char*>(p), parts.name_size);
  f.comm_name = parts.name == CallParts::kNone ? nullptr : &comm_name_;
  observer_.call(f);
}

}  // namespace simmpi::runtime
