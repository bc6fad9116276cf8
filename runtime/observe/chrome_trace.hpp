// SPDX-License-Identifier: Apache-2.0
// The run as a Chrome trace-event JSON file (report.timeline = chrome), which ui.perfetto.dev
// and chrome://tracing open: nodes are processes, ranks (and their program threads) threads; MPI
// calls and the own code between them are slices, with the call's peer, tag, bytes and
// communicator; each point-to-point message is a flow arrow from the call that sent it to the
// call that completed its receive. Written as the run goes, so memory stays flat; limited to a
// TimelineScope.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/observe/counter_track.hpp"
#include "runtime/observe/observation.hpp"
#include "runtime/observe/text_output.hpp"
#include "runtime/observe/timeline_scope.hpp"

namespace simmpi::runtime {

class ChromeTrace : public Observer {
 public:
  // Opens `path` (gzip-compressed when it ends in .gz, which both viewers open); throws
  // ConfigError naming `key` when it cannot. `node_of_rank` places each rank.
  ChromeTrace(const std::string& path, const char* key, std::vector<int> node_of_rank,
              TimelineScope scope);
  void call(const CallFacts& f) override;
  bool wants_messages() const override { return true; }
  // After the run, before finish: `tracks` as one process named `group`, after every node, a
  // counter track each.
  void counters(const std::string& group, const std::vector<CounterTrack>& tracks);
  // After the run: each shown process's own code after its last call, until `end[process]`
  // (indexed by process id), and the end of the file, closed. Returns the number of events
  // written, or -1 (with `error` set) when the file could not be written completely.
  std::int64_t finish(const std::vector<SimTime>& end, std::string* error);

 private:
  // Each call's slice is a unit of the compressed text (see TextOutput), with its flow end when
  // it has one (a send, a receive: most point-to-point calls), and so is each other event
  // (own code, the flow ends of a call with several), marked by its kind on its lane and by its
  // kind: the lane's last unit of the same kind is usually the same text but for its times and
  // ids, so most of a unit is a copy of it; where that is out of the window, of the last of the
  // kind on any lane. A unit's pieces are the same for every unit of a kind: the kind's opening
  // text, the lane's text, the numbers, the call's tail, then the flow end's opening text, its
  // id, the lane's text and its time. Against the lane's last unit of the kind, the lane's text,
  // and the tail when the call's is the same, are known to be the same and copied without being
  // compared. One unit for a slice and its flow end begins, ends and marks once, and its copy
  // runs on from the slice's tail into the flow end's opening text.
  enum Flow : int {  // a unit's flow end; the same for every unit of a kind
    kNoFlow,
    kSent,
    kSentInternal,  // a collective's own message
    kReceived,
    kReceivedInternal,
  };
  // The flow end's opening text (with the separator before it), ',\n{"ph":"s",...,"id":'.
  static const char* const kFlowOpen[5];
  struct Kind {       // a call's slices (by name and flow end), own code, or one kind of flow end
    std::string key;  // the name, or the flow end's opening text
    Flow flow;        // of a slice's unit
    // A slice's ',\n{"ph":"X","name":NAME' (every unit begins with the separator); empty for a
    // flow end's kind, whose unit writes its opening text from flow_open_ (flow_end).
    TextOutput::ShortText open;
    TextOutput::Mark last;
  };
  // What a call's slice says after its begin; `comm`: which communicator name (comm_names_),
  // 0: none.
  struct Tail {
    std::int64_t duration = -1, blocked = 0, bytes = 0;
    int peer = 0, tag = 0;
    std::uint64_t comm = 0;
    bool operator==(const Tail&) const = default;
  };
  struct Head {       // a kind on one lane
    const char* key;  // Kind::key's literal, by address (names are string literals)
    Flow flow;
    Kind* kind;
    TextOutput::Mark last;
    Tail tail;  // of its last call, and its text
    TextOutput::TailText tail_text;
  };
  struct Lane {  // one process's row
    bool named = false;
    int rank = 0, ordinal = 0;
    SimTime last_end;             // the end of its last call
    TextOutput::ShortText where;  // ',"pid":P,"tid":T,"ts":', which every event of the lane has
    std::vector<std::unique_ptr<Head>> heads;  // which do not move when lanes_ grows
    std::array<Head*, 16> recent{};            // by a hash of the key: most lookups
  };
  Lane& lane(int process, int rank, int ordinal) {
    const auto p = static_cast<std::size_t>(process);
    if (p < lanes_.size() && lanes_[p].named) return lanes_[p];
    return new_lane(process, rank, ordinal);
  }
  Lane& new_lane(int process, int rank, int ordinal);
  // `key`: a slice's name (`slice`), or a flow end's opening text; a string literal.
  Head& head(Lane& l, const char* key, Flow flow, bool slice) {
    const auto a = reinterpret_cast<std::uintptr_t>(key) + static_cast<std::uintptr_t>(flow);
    Head*& r = l.recent[(a * 0x9E3779B97F4A7C15) >> 60];  // the top 4 bits of a Fibonacci hash
    if (!r || r->key != key || r->flow != flow) r = &find_head(l, key, flow, slice);
    return *r;
  }
  Head& find_head(Lane& l, const char* key, Flow flow, bool slice);
  // The slice of the lane's own code from `begin` to `end`, when the window shows enough of it
  // (TimelineScope::clip_own_code).
  void own_code(Lane& l, SimTime begin, SimTime end) {
    if (scope_.may_show_own_code(begin, end)) own_code_slice(l, begin, end);  // most: no gap
  }
  void own_code_slice(Lane& l, SimTime begin, SimTime end);
  // The separator from the event before (an event that is not a unit).
  void begin_event();
  // Begins an event of `h` (its kind on its lane) as a unit; returns whether its reference is
  // h's last event (see TextOutput::begin).
  bool begin_event(Head& h);
  // The lane's text (pid, tid, "ts" key): known to be the same as the reference's when that is
  // the lane's own event (`near`), else compared.
  void where(const Lane& l, bool near) { out_.piece(l.where, near); }
  // A flow end of message `m` of lane `l` at `at`, in the unit begun (see begin_event). Inline,
  // as slice_head(): as calls of their own, their entries and exits cost ~40 instructions a call.
  [[gnu::always_inline]] void flow_end(Flow flow, const MessageLink& m, std::int64_t at,
                                       const Lane& l, bool near);
  // A metadata event: `arg` of `what` is `value_json`; `tid` -1: the process's.
  void metadata(const char* what, int pid, int tid, const char* arg, const std::string& value_json);
  std::string tail_text(const Tail& t) const;
  // Begins a slice of `h` and writes its fields up to its begin; returns begin_event's answer.
  [[gnu::always_inline]] bool slice_head(Head& h, const Lane& l, SimTime begin);

  TextOutput out_;
  std::array<TextOutput::ShortText, 5> flow_open_;  // kFlowOpen's texts
  std::vector<int> node_of_rank_;
  TimelineScope scope_;
  std::vector<Lane> lanes_;  // by process id
  std::vector<bool> node_named_;
  std::vector<std::unique_ptr<Kind>> kinds_;
  std::uint64_t events_ = 0;
  // The last communicator name, its stamp (CallFacts::comm_name_stamp: the name is compared
  // only when that changes), its JSON text (',"comm":NAME') and how many names there were.
  std::string comm_name_, comm_json_;
  std::uint64_t comm_stamp_ = 0, comm_names_ = 0;
};

}  // namespace simmpi::runtime
