// scale_bench: one job life of SCR++ (job_life.hpp) on N simulated ranks;
// one JSON line per step, one for the metadata files, one for the run.
//   scale_bench --ranks N --dir DIR [--files-per-rank F] [--ranks-per-node R]
//               [--stack-kib K] [--schemes S1,S2,...] [--rescale 0|1]
// bench/scale/run.sh runs it for growing N and prints the growth.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "job_life.hpp"

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= list.size()) {
    size_t comma = list.find(',', at);
    if (comma == std::string::npos) comma = list.size();
    if (comma > at) out.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

int usage() {
  std::fprintf(stderr,
               "usage: scale_bench --ranks N --dir DIR [--files-per-rank F] [--ranks-per-node R] "
               "[--stack-kib K] [--schemes SINGLE,PARTNER,XOR,RS] [--rescale 0|1]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  scr::bench::LifeOptions o;
  o.dir.clear();
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    std::string v = argv[++i];
    if (a == "--ranks") o.ranks = std::atoi(v.c_str());
    else if (a == "--dir") o.dir = v;
    else if (a == "--files-per-rank") o.files_per_rank = std::atoi(v.c_str());
    else if (a == "--ranks-per-node") o.ranks_per_node = std::atoi(v.c_str());
    else if (a == "--schemes") o.schemes = split(v);
    else if (a == "--rescale") o.rescale = v != "0";
    else if (a == "--stack-kib") o.stack_bytes = static_cast<size_t>(std::atol(v.c_str())) << 10;
    else return usage();
  }
  if (o.ranks < 1 || o.dir.empty() || o.files_per_rank < 1 || o.ranks_per_node < 1) return usage();
  auto t0 = std::chrono::steady_clock::now();
  scr::bench::LifeResult r;
  try {
    r = scr::bench::run_job_life(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scale_bench: %s\n", e.what());
    return 2;
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& s : r.steps)
    std::printf(
        "{\"bench\":\"scale\",\"N\":%d,\"ranks\":%d,\"step\":%s,\"times\":%d,\"wall_s\":%.6f,"
        "\"messages_max\":%llu,\"messages_mean\":%.2f,\"bytes_max\":%llu,\"bytes_mean\":%.1f,"
        "\"cpu_max_s\":%.6f,\"cpu_mean_s\":%.6f,\"rank0_cpu_s\":%.6f,"
        "\"rank0_peak_bytes\":%lld,\"rank0_step_bytes\":%lld}\n",
        o.ranks, s.ranks, quoted(s.name).c_str(), s.times, s.wall_s / s.times,
        static_cast<unsigned long long>(s.messages_max / static_cast<uint64_t>(s.times)), s.messages_mean / s.times,
        static_cast<unsigned long long>(s.bytes_max / static_cast<uint64_t>(s.times)), s.bytes_mean / s.times,
        s.cpu_max_s / s.times, s.cpu_mean_s / s.times, s.rank0_cpu_s / s.times,
        static_cast<long long>(s.rank0_peak_bytes), static_cast<long long>(s.rank0_step_bytes));
  std::string files;
  for (const auto& [kind, bytes] : r.largest_files)
    files += (files.empty() ? "" : ",") + quoted(kind) + ":" + std::to_string(bytes);
  std::printf("{\"bench\":\"scale-files\",\"N\":%d,\"largest\":{%s}}\n", o.ranks, files.c_str());
  std::string restored, failures;
  for (const auto& n : r.restored) restored += (restored.empty() ? "" : ",") + quoted(n);
  for (const auto& f : r.failures) failures += (failures.empty() ? "" : ",") + quoted(f);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf(
      "{\"bench\":\"scale-run\",\"N\":%d,\"total_s\":%.3f,\"max_rss_mib\":%.1f,\"restored\":[%s],"
      "\"expected\":%s,\"failures\":[%s]}\n",
      o.ranks, total, static_cast<double>(ru.ru_maxrss) / 1024.0, restored.c_str(),
      quoted(scr::bench::newest_checkpoint()).c_str(), failures.c_str());
  return r.failures.empty() ? 0 : 1;
}
