// SPDX-License-Identifier: Apache-2.0
// An observer run on a host thread of its own (report.timeline_thread): the facts of the run are
// copied into blocks on the simulation's thread, and the other thread tells them to the observer
// it wraps, in the order they came. A timeline writer (ChromeTrace, Otf2Trace) spends more host
// time on a call than the simulation spends on the call itself (formatting, compressing, a
// library's buffers); on a second CPU that work overlaps the run. The observer sees the same
// facts in the same order, so what it writes is the same, byte for byte.
//
// The simulation's thread pays the copy (the call's fields, its messages, a communicator's name
// when it changed: a few hundred bytes) and, once a block is full, a hand-over under a mutex; it
// waits only when the writer is kBlocksInFlight blocks behind, which bounds the memory. The
// observer runs on the other thread from the first fact to stop(), and on the caller's before
// and after.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/observe/observation.hpp"

namespace simmpi::runtime {

class ObserverThread : public Observer {
 public:
  // Starts the thread that tells `observer`, which must outlive this.
  explicit ObserverThread(Observer& observer);
  // Without stop(): ends the thread, dropping the facts not yet told (a run that failed).
  ~ObserverThread() override;
  ObserverThread(const ObserverThread&) = delete;
  ObserverThread& operator=(const ObserverThread&) = delete;

  // Whether the host has a CPU to spare for the thread (more than one this process may run on).
  static bool host_has_spare_cpu();

  void call(const CallFacts& f) override;
  bool wants_messages() const override { return wants_messages_; }
  void rendezvous_matched(std::uint64_t id, SimTime at) override;
  bool wants_records() const override { return wants_records_; }
  void compute(const ComputeFacts& f) override;
  void thread_started(const ThreadStart& f) override;
  void thread_joined(const ThreadJoin& f) override;

  // Hands over what is left, waits until the observer has been told all of it, and ends the
  // thread; then rethrows what the observer threw, if it did. The observer is the caller's
  // again afterwards. Called once.
  void stop();

 private:
  // Facts waiting for the thread: entries of whole 8-byte words, each a Told and its size.
  struct Block {
    std::vector<std::uint64_t> words;
    std::size_t used = 0;  // words
  };
  static constexpr std::size_t kBlockWords = (256 << 10) / 8;
  static constexpr std::size_t kBlocksInFlight = 16;

  // Room for an entry of `words` words in the current block (handing it over first when full).
  std::uint64_t* room(std::size_t words) {
    Block& b = *filling_;
    if (b.words.size() - b.used < words) return room_after_hand_over(words);
    std::uint64_t* p = b.words.data() + b.used;
    b.used += words;
    return p;
  }
  std::uint64_t* room_after_hand_over(std::size_t words);
  void hand_over();  // the current block to the thread; takes a free one
  void run();        // the thread
  void tell(const Block& b);
  void tell_call(const std::uint64_t* p);  // p: the entry

  Observer& observer_;
  const bool wants_messages_, wants_records_;

  // The simulation's side: the block being filled, and the last communicator name's stamp sent.
  std::unique_ptr<Block> filling_;
  std::uint64_t sent_name_stamp_ = 0;
  bool stopped_ = false;

  // Shared, under mutex_: blocks for the thread (in order), blocks free again, and how many
  // exist.
  std::mutex mutex_;
  std::condition_variable has_full_, has_free_;
  std::deque<std::unique_ptr<Block>> full_, free_;
  std::size_t blocks_ = 0;
  bool ending_ = false;            // no more blocks will come
  std::atomic<bool> drop_{false};  // the thread drops what it has not told (destructor)
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;  // what the observer threw; written before failed_

  // The thread's side: what a call's pointers point to while the observer is told of it.
  template <class T>
  struct List {
    const std::vector<T> none;
    std::vector<T> one = std::vector<T>(1), many;
    const std::vector<T>* take(const std::uint64_t*& p, std::uint32_t n);
  };
  List<MessageLink> sent_, received_, probed_;
  List<std::int64_t> record_, records_after_;
  std::string comm_name_;
  CallFacts facts_;  // the call being told, copied over for each (none is made anew)

  std::thread thread_;  // started when everything above is ready
};

}  // namespace simmpi::runtime
