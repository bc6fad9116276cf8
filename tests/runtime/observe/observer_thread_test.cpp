// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/observer_thread.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

// Writes down everything it is told, as text, with the thread it was told on.
class Notebook : public Observer {
 public:
  explicit Notebook(bool records) : records_(records) {}
  void call(const CallFacts& f) override {
    std::string s = strprintf(
        "call %s p%d r%d o%d %lld..%lld b%lld bytes%lld peer%d tag%d c%d/%d/%d", f.name, f.process,
        f.rank, f.ordinal, static_cast<long long>(f.begin.ps()), static_cast<long long>(f.end.ps()),
        static_cast<long long>(f.blocked.ps()), static_cast<long long>(f.bytes), f.peer, f.tag,
        f.comm_context, f.comm_leader, f.comm_size);
    s += f.comm_name ? " name=" + *f.comm_name : " noname";
    s += strprintf(" stamp%llu", static_cast<unsigned long long>(f.comm_name_stamp));
    s += links("sent", f.sent) + links("received", f.received) + links("probed", f.probed);
    s += strprintf(" kind%d", f.record_kind) + numbers("record", f.record) +
         numbers("after", f.records_after);
    told(s);
  }
  bool wants_messages() const override { return true; }
  void rendezvous_matched(std::uint64_t id, SimTime at) override {
    told(strprintf("rendezvous %llu %lld", static_cast<unsigned long long>(id),
                   static_cast<long long>(at.ps())));
  }
  bool wants_records() const override { return records_; }
  void compute(const ComputeFacts& f) override {
    told(strprintf("compute p%d r%d o%d k%d %s %g %g %lld %lld %lld %lld", f.process, f.rank,
                   f.ordinal, f.kernel, f.kernel_name, f.ops, f.bytes, static_cast<long long>(f.m),
                   static_cast<long long>(f.n), static_cast<long long>(f.k),
                   static_cast<long long>(f.time.ps())));
  }
  void thread_started(const ThreadStart& f) override {
    told(strprintf("started p%d r%d o%d c%d %lld", f.process, f.rank, f.ordinal, f.creator,
                   static_cast<long long>(f.at.ps())));
  }
  void thread_joined(const ThreadJoin& f) override {
    told(strprintf("joined %d %d %lld %lld", f.joiner, f.thread, static_cast<long long>(f.end.ps()),
                   static_cast<long long>(f.resumed.ps())));
  }

  std::vector<std::string> pages;
  std::vector<std::thread::id> threads;  // each page's

 private:
  static std::string links(const char* what, const std::vector<MessageLink>* v) {
    if (!v) return strprintf(" %s:absent", what);
    std::string s = strprintf(" %s:", what);
    for (const MessageLink& m : *v)
      s += strprintf("[%llu %d %d %llu %d %lld %d]", static_cast<unsigned long long>(m.id), m.rank,
                     m.tag, static_cast<unsigned long long>(m.bytes), m.internal,
                     static_cast<long long>(m.at.ps()), m.rendezvous);
    return s;
  }
  static std::string numbers(const char* what, const std::vector<std::int64_t>* v) {
    if (!v) return strprintf(" %s:absent", what);
    std::string s = strprintf(" %s:", what);
    for (std::int64_t x : *v) s += strprintf("%lld,", static_cast<long long>(x));
    return s;
  }
  void told(std::string s) {
    pages.push_back(std::move(s));
    threads.push_back(std::this_thread::get_id());
  }
  bool records_;
};

// Tells `o` a run's worth of facts of every kind: lists of none, one and many, absent ones, a
// communicator name that changes with its stamp, one without a stamp, and one call too large
// for a block.
void tell_a_run(Observer& o) {
  std::vector<MessageLink> none, one(1), many(5), huge(20000);
  for (std::size_t i = 0; i < many.size(); ++i)
    many[i] = {100 + i, static_cast<int>(i), 7,
               64 * i,  i % 2 == 0,          SimTime::from_ps(1000 + static_cast<std::int64_t>(i)),
               i == 3};
  for (std::size_t i = 0; i < huge.size(); ++i) huge[i].id = i;
  one[0] = {42, 1, 3, 8, false, SimTime::from_ps(77), false};
  std::vector<std::int64_t> record = {1, 2, 3}, after = {9};
  std::string world = "MPI_COMM_WORLD", renamed = "halves";
  for (int i = 0; i < 30000; ++i) {
    CallFacts f;
    f.name = i % 3 == 0 ? "MPI_Send" : "MPI_Recv";
    f.process = i % 4;
    f.rank = i % 4;
    f.ordinal = i % 5 == 0;
    f.begin = SimTime::from_ps(10 * i);
    f.end = SimTime::from_ps(10 * i + 7);
    f.blocked = SimTime::from_ps(i % 7);
    f.bytes = i % 11 == 0 ? -1 : i;
    f.peer = i % 6 - 1;
    f.tag = i % 9;
    f.comm_context = i % 13 - 1;
    f.comm_leader = 0;
    f.comm_size = 4;
    // The name changes under the same pointer, and the stamp says so; stamp 0 says nothing.
    world = i < 15000 ? "MPI_COMM_WORLD" : "world, renamed";
    if (i % 17 != 0) {
      f.comm_name = i % 2 ? &world : &renamed;
      f.comm_name_stamp = i % 19 == 0 ? 0 : (i % 2 ? 1 : 2) + (i < 15000 ? 0 : 10);
    }
    f.sent = i % 3 == 0 ? &one : i % 3 == 1 ? &none : nullptr;
    f.received = i % 4 == 0 ? &many : &none;
    f.probed = i % 10 == 0 ? &one : nullptr;
    f.record_kind = i % 2 ? 5 : -1;
    f.record = i % 2 ? &record : nullptr;
    f.records_after = i % 8 == 1 ? &after : nullptr;
    if (i == 12345) f.received = &huge;
    o.call(f);
    if (i % 100 == 0) o.rendezvous_matched(static_cast<std::uint64_t>(i), SimTime::from_ps(i));
    if (i % 250 == 0) {
      ComputeFacts c;
      c.process = 1;
      c.kernel = 2;
      c.kernel_name = "dgemm";
      c.ops = 1e9 + i;
      c.m = c.n = c.k = i;
      c.time = SimTime::from_ps(3 * i);
      o.compute(c);
    }
    if (i == 500) o.thread_started({5, 1, 1, 1, SimTime::from_ps(9)});
    if (i == 900) o.thread_joined({1, 5, SimTime::from_ps(11), SimTime::from_ps(12)});
  }
}

// The observer on the thread is told the same facts, in the same order, as one told directly,
// and on another thread.
TEST(ObserverThread, TellsTheSameFactsInOrder) {
  for (bool records : {false, true}) {
    Notebook direct(records), through(records);
    tell_a_run(direct);
    {
      ObserverThread t(through);
      EXPECT_TRUE(t.wants_messages());
      EXPECT_EQ(t.wants_records(), records);
      tell_a_run(t);
      t.stop();
    }
    if (!records)  // the lists an observer does not want are not copied: absent
      for (std::string& page : direct.pages) {
        const auto kind = page.find(" record:");
        if (kind != std::string::npos) page = page.substr(0, kind) + " record:absent after:absent";
      }
    ASSERT_EQ(direct.pages.size(), through.pages.size());
    for (std::size_t i = 0; i < direct.pages.size(); ++i)
      ASSERT_EQ(direct.pages[i], through.pages[i]) << "fact " << i;
    EXPECT_GT(through.pages.size(), 30000u);
    for (std::thread::id id : through.threads) EXPECT_NE(id, std::this_thread::get_id());
  }
}

class Thrower : public Notebook {
 public:
  Thrower() : Notebook(false) {}
  void call(const CallFacts& f) override {
    if (pages.size() == 1000) throw std::runtime_error("the disk is full");
    Notebook::call(f);
  }
};

// What the observer throws comes back from stop(), on the caller's thread; what came after it
// is not told.
TEST(ObserverThread, StopRethrowsWhatTheObserverThrew) {
  Thrower o;
  ObserverThread t(o);
  tell_a_run(t);
  EXPECT_THROW(
      {
        try {
          t.stop();
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "the disk is full");
          throw;
        }
      },
      std::runtime_error);
  EXPECT_EQ(o.pages.size(), 1000u);
}

// Without stop() (a run that failed), the destructor ends the thread without waiting for the
// facts not yet told.
TEST(ObserverThread, DestroyedWithoutStop) {
  Notebook o(false);
  {
    ObserverThread t(o);
    tell_a_run(t);
  }
  EXPECT_LE(o.pages.size(), 30000u + 300 + 121 + 2);
}

}  // namespace
}  // namespace simmpi::runtime
