// SPDX-License-Identifier: Apache-2.0
// Command-line parsing of the simulated program.
#include "libsimmpi/launch/launch_options.hpp"

#include <cstdlib>
#include <cstring>

#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

int parse_ranks(const std::string& text) {
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1 || v > 100000000)
    throw ConfigError("-n " + text + ": the number of ranks must be an integer of at least 1");
  return static_cast<int>(v);
}

// Consumes one simulator option at args[i] (and its value). False if args[i] is not one.
bool take_option(const std::vector<std::string>& args, std::size_t& i, LaunchOptions& o) {
  const std::string& a = args[i];
  auto value = [&](const char* name) -> std::string {
    std::string prefix = std::string(name) + "=";
    if (a.rfind(prefix, 0) == 0) return a.substr(prefix.size());
    if (i + 1 >= args.size()) throw ConfigError(std::string(name) + " needs a value");
    return args[++i];
  };
  auto is = [&](const char* name) { return a == name || a.rfind(std::string(name) + "=", 0) == 0; };
  if (a == "-n" || a == "-np" || is("--ranks")) {
    o.ranks = parse_ranks(value(a == "-n" ? "-n" : a == "-np" ? "-np" : "--ranks"));
  } else if (is("--platform")) {
    o.platform = value("--platform");
  } else if (is("--set")) {
    o.sets.push_back(value("--set"));
  } else if (a == "--print-config") {
    o.print_config = true;
  } else if (a == "--print-machine") {
    o.print_machine = true;
  } else if (a == "--help-config") {
    o.help_config = true;
  } else if (a == "--help-config=markdown") {
    o.help_config = o.help_config_markdown = true;
  } else if (a == "--quiet") {
    o.quiet = true;
  } else if (a == "--profile") {  // one flag for the key, as profilers are switched on
    o.sets.push_back("report.profile=true");
  } else if (a == "--report") {
    for (const char* k : {"report.profile=true", "report.critical_path=true", "network.stats=true",
                          "network.stats_matrix=ranks", "report.html=true"})
      o.sets.push_back(k);
  } else if (a == "--critical-path") {
    o.sets.push_back("report.critical_path=true");
  } else if (a == "--timeline") {
    o.sets.push_back("report.timeline=chrome");
  } else if (a.rfind("--timeline=", 0) == 0) {
    o.sets.push_back("report.timeline=" + a.substr(11));
  } else if (a == "--record") {
    o.sets.push_back("report.record=simmpi_trace");
  } else if (a.rfind("--record=", 0) == 0) {
    o.sets.push_back("report.record=" + a.substr(9));
  } else if (a == "--help" || a == "-h") {
    o.help = true;
  } else {
    return false;
  }
  return true;
}

}  // namespace

LaunchOptions parse_launch_options(int argc, char** argv, const char* env_options) {
  LaunchOptions o;
  o.app_argv.push_back(argv[0]);
  if (env_options) {
    std::vector<std::string> args;
    for (const char* p = env_options; *p;) {
      const char* sep = std::strchr(p, '\x1f');
      args.emplace_back(p, sep ? sep : p + std::strlen(p));
      p = sep ? sep + 1 : p + std::strlen(p);
    }
    for (std::size_t i = 0; i < args.size(); ++i)
      if (!take_option(args, i, o))
        throw ConfigError("unknown option \"" + args[i] + "\" (see --help)");
    for (int i = 1; i < argc; ++i) o.app_argv.push_back(argv[i]);
    return o;
  }
  std::vector<std::string> args(argv + 1, argv + argc);
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    if (args[i] == "--") {
      ++i;
      break;
    }
    if (take_option(args, i, o)) continue;
    if (args[i].rfind("--", 0) == 0 && args[i].size() > 2)
      throw ConfigError("unknown option \"" + args[i] +
                        "\" (see --help); put the program's own options after \"--\"");
    break;  // the first argument that is not ours starts the application's arguments
  }
  for (; i < args.size(); ++i) o.app_argv.push_back(argv[i + 1]);
  return o;
}

std::string launch_help(const char* program) {
  return strprintf(
      "usage: %s [-n N] [--platform FILE.toml] [--set key=value]... [--] [program arguments]\n"
      "\n"
      "Runs this MPI program as N simulated ranks in one process and reports the time it would\n"
      "take on the simulated machine.\n"
      "\n"
      "  -n N, -np N, --ranks N  number of MPI ranks (default 1)\n"
      "  --platform FILE.toml    machine description, a file or the name of a preset shipped\n"
      "  --platform NAME         with simmpi (frontera, pupmaya, broadwell4...); without it the\n"
      "                          embedded default platform is used (a cluster of one-rank nodes\n"
      "                          on one 100 Gb/s switch)\n"
      "  --set key=value         override one platform key, e.g. --set network.link_bw=200Gbps;\n"
      "                          may be repeated; applied after --platform\n"
      "  --print-config          print the effective platform as TOML and exit\n"
      "  --print-machine         print the machine's size (nodes=N ranks_per_node=R ranks=N*R;\n"
      "                          nodes=0: it grows to fit the ranks) and exit\n"
      "  --help-config           list every platform key with its default and meaning\n"
      "  --quiet                 do not print the summary at the end\n"
      "  --profile               profile the run: a summary on stderr at the end and a JSON\n"
      "                          file (--set report.profile=true; see report.* keys)\n"
      "  --critical-path         the chain of events that decided the run's end: a summary on\n"
      "                          stderr and a JSON file (--set report.critical_path=true)\n"
      "  --timeline[=FORMAT]     write the run's timeline: chrome (the default) for\n"
      "                          ui.perfetto.dev or chrome://tracing, otf2 for Vampir\n"
      "                          (--set report.timeline=FORMAT; report.timeline_ranks and\n"
      "                          report.timeline_window limit it)\n"
      "  --report                profile, critical path and network statistics, and at the end\n"
      "                          one HTML page of them with plots (simmpi_report.html)\n"
      "  --record[=DIR]          record the run's MPI calls and compute for simmpi-replay\n"
      "                          into DIR (simmpi_trace; --set report.record=DIR)\n"
      "  --help                  this text\n"
      "  --                      everything after it goes to the program\n"
      "\n"
      "The first argument that is not one of these options, and everything after it, goes to the\n"
      "program unchanged. simmpirun -n N %s [args] is the same, with every argument going to the\n"
      "program.\n"
      "\n"
      "At the end a summary goes to standard error: ranks, simulated time and events (the same on\n"
      "every run), then wall time and peak memory (which vary).\n"
      "Exit status: the program's (a rank's non-zero status, or MPI_Abort's code); 1 for an MPI\n"
      "error, 2 for a bad option or platform, 3 for a deadlock, 128+signal for a crashed rank.\n",
      program, program);
}

}  // namespace simmpi::mpi
