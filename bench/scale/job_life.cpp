#include "job_life.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <memory>
#include <mutex>

#include "alloc_count.hpp"
#include "io/env.hpp"
#include "io/files.hpp"
#include "mpi/in_process.hpp"
#include "mpi/in_process_fabric.hpp"
#include "runtime/config/config.hpp"
#include "runtime/prefix/dataset.hpp"
#include "runtime/runtime.hpp"

namespace scr::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Ten checkpoints. The schemes take CKPT intervals 1, 2, 3 and 5 in the
// order given (by default SINGLE, PARTNER, XOR, RS): SINGLE protects ids 1
// and 7, PARTNER 2, 4 and 8, XOR 3, 6 and 9, RS 5 and 10 (the highest
// interval dividing the id wins), so every scheme runs several times and
// the newest, the one every restart must restore, is the last scheme's.
constexpr int kCheckpoints = 10;
constexpr int kIntervals[] = {1, 2, 3, 5};

std::string descriptors(const std::vector<std::string>& schemes) {
  std::string lines;
  for (size_t i = 0; i < schemes.size(); ++i) {
    lines += "CKPT=" + std::to_string(i) + " INTERVAL=" + std::to_string(kIntervals[i]) + " TYPE=" + schemes[i];
    if (schemes[i] == "XOR" || schemes[i] == "RS") lines += " SET_SIZE=8";
    if (schemes[i] == "RS") lines += " SET_FAILURES=2";
    lines += "\n";
  }
  return lines;
}

const std::string& scheme_of(const std::vector<std::string>& schemes, int id) {
  size_t best = 0;
  for (size_t i = 0; i < schemes.size(); ++i)
    if (id % kIntervals[i] == 0) best = i;
  return schemes[best];
}

// CPU time of the calling thread: a rank's own work, which on two cores
// shared by thousands of ranks the wall clock cannot show.
double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::string checkpoint_name(int id) { return "ckpt." + std::to_string(id); }

std::string file_name(const std::string& dataset, int rank, int i) {
  return dataset + "/rank_" + std::to_string(rank) + "_" + std::to_string(i) + ".dat";
}

// Tiny and distinct per checkpoint, rank and file.
std::string file_bytes(const std::string& dataset, int rank, int i) {
  std::string b = dataset + "/" + std::to_string(rank) + "/" + std::to_string(i) + "|";
  while (b.size() < 64) b += b;
  return b;
}

// Per-rank figures of one step of one job, gathered before they are summed.
struct Samples {
  std::string name;
  std::vector<uint64_t> messages, bytes;
  std::vector<double> cpu_s;
  double wall_s = 0;
  int64_t rank0_peak = 0, rank0_step = 0;
};

class Life {
 public:
  explicit Life(const LifeOptions& o) : o_(o) {
    root_ = o.dir;
    prefix_ = root_ + "/prefix";
    cache_ = root_ + "/cache";
    cntl_ = root_ + "/cntl";
  }

  LifeResult run() {
    std::error_code ec;
    fs::remove_all(root_, ec);
    fs::create_directories(prefix_);
    if (o_.schemes.empty() || o_.schemes.size() > std::size(kIntervals))
      throw std::invalid_argument("the job life takes one to four schemes");
    std::ofstream(root_ + "/scale.conf") << descriptors(o_.schemes);
    bool ok = job(o_.ranks, [&](Rank& me) {
      me.step("init (nothing cached)", [&] { me.init(); });
      for (int id = 1; id <= kCheckpoints; ++id)
        me.step("checkpoint " + scheme_of(o_.schemes, id), [&] { me.checkpoint(checkpoint_name(id)); });
      me.step("finalize (flush)", [&] { me.finalize(); });
    });
    if (ok) {
      lose_node("n1");
      ok = job(o_.ranks, [&](Rank& me) {
        me.step("init (node lost: rebuild)", [&] { me.init(); });
        me.step("restart from cache", [&] { me.restart_same_size(); });
        me.step("finalize (after rebuild)", [&] { me.finalize(); });
      });
    }
    if (ok) {
      lose_every_node();
      ok = job(o_.ranks, [&](Rank& me) {
        me.step("init (all lost: fetch)", [&] { me.init(); });
        me.step("restart from prefix", [&] { me.restart_same_size(); });
        me.step("finalize (after fetch)", [&] { me.finalize(); });
      });
    }
    if (ok && o_.rescale && o_.ranks >= 2) {
      lose_every_node();
      job(o_.ranks / 2, [&](Rank& me) {
        me.step("init (half the ranks)", [&] { me.init(); });
        me.step("restart at half size", [&] { me.restart_other_size(); });
        me.step("finalize (half size)", [&] { me.finalize(); });
      });
    }
    measure_files();
    return std::move(result_);
  }

 private:
  // One rank of one job: its runtime and its way of measuring steps.
  struct Rank {
    Life& life;
    mpi::Comm& world;
    const rt::Config& config;
    std::vector<Samples>& samples;
    std::unique_ptr<rt::Runtime> rt;
    size_t next = 0;

    int rank() const { return world.rank(); }

    void step(const std::string& name, const std::function<void()>& body) {
      world.barrier();
      if (rank() == 0) reset_counted_peak();
      int64_t held = counted_live_bytes();
      mpi::Traffic before = mpi::thread_traffic();
      double cpu0 = thread_cpu_s();
      auto t0 = Clock::now();
      body();
      double cpu = thread_cpu_s() - cpu0;
      mpi::Traffic after = mpi::thread_traffic();
      world.barrier();
      Samples& s = samples.at(next++);
      if (rank() == 0) {
        s.name = name;
        s.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
        s.rank0_peak = counted_peak_bytes();
        s.rank0_step = s.rank0_peak - held;
      }
      s.messages[static_cast<size_t>(rank())] = after.messages - before.messages;
      s.bytes[static_cast<size_t>(rank())] = after.bytes - before.bytes;
      s.cpu_s[static_cast<size_t>(rank())] = cpu;
    }

    void fail(const std::string& what) { life.fail("rank " + std::to_string(rank()) + ": " + what); }
    bool check(const Status& st, const std::string& what) {
      if (!st.ok()) fail(what + ": " + st.to_string());
      return st.ok();
    }

    void init() {
      auto started = rt::Runtime::init(config, world);
      if (check(started.status(), "SCR_Init")) rt = std::move(started).value();
    }

    void finalize() {
      if (rt) check(rt->finalize(), "SCR_Finalize");
      rt.reset();
    }

    void checkpoint(const std::string& name) {
      if (!rt) return;
      if (!check(rt->start_output(name, rt::kFlagCheckpoint), "SCR_Start_output " + name)) return;
      bool written = true;
      for (int i = 0; i < life.o_.files_per_rank; ++i) {
        auto path = rt->route_file(file_name(name, rank(), i));
        written = written && check(path.status(), "SCR_Route_file") &&
                  check(io::write_file_atomic(io::Env::posix(), *path, file_bytes(name, rank(), i)),
                        "writing " + file_name(name, rank(), i));
      }
      check(rt->complete_output(written), "SCR_Complete_output " + name);
    }

    // Whether `listed` (prefix-relative), written by `writer`, reads back as written.
    bool verify(const std::string& listed, int writer, int i) {
      auto path = rt->route_file(rt->routable_name(listed));
      if (!check(path.status(), "SCR_Route_file " + listed)) return false;
      auto bytes = io::read_file(io::Env::posix(), *path, 1 << 20);
      if (!check(bytes.status(), "reading " + listed)) return false;
      std::string dataset = listed.substr(0, listed.find('/'));
      if (bytes.ok() && *bytes == file_bytes(dataset, writer, i)) return true;
      fail("read other bytes from " + listed + " than rank " + std::to_string(writer) + " wrote");
      return false;
    }

    std::string start_restart() {
      if (!rt) return "";
      bool have = false;
      std::string name;
      if (!check(rt->have_restart(&have, &name), "SCR_Have_restart")) return "";
      if (!have) {
        fail("no checkpoint to restart from");
        return "";
      }
      if (!check(rt->start_restart().status(), "SCR_Start_restart")) return "";
      if (rank() == 0) life.restored(name);
      return name;
    }

    void restart_same_size() {
      std::string name = start_restart();
      if (name.empty()) return;
      bool valid = true;
      for (int i = 0; i < life.o_.files_per_rank; ++i)
        valid = verify(file_name(name, rank(), i), rank(), i) && valid;
      check(rt->complete_restart(valid), "SCR_Complete_restart");
    }

    // Every rank reads its share of the files the job twice its size wrote.
    void restart_other_size() {
      std::string name = start_restart();
      if (name.empty()) return;
      auto listing = rt->restart_listing();
      bool valid = check(listing.status(), "SCR_Restart listing");
      size_t expected = static_cast<size_t>(2 * world.size() * life.o_.files_per_rank);
      if (valid && (*listing)->size() != expected) {
        fail("the listing names " + std::to_string((*listing)->size()) + " files, not " + std::to_string(expected));
        valid = false;
      }
      // A contiguous share of the listing: one or two pieces of its table.
      const uint64_t n = valid ? (*listing)->size() : 0, procs = static_cast<uint64_t>(world.size());
      for (uint64_t k = n * static_cast<uint64_t>(rank()) / procs; valid && k < n * (static_cast<uint64_t>(rank()) + 1) / procs; ++k) {
        auto entry = (*listing)->at(k);
        if (!check(entry.status(), "SCR_Restart listing")) {
          valid = false;
          break;
        }
        const rt::TableFile& f = *entry;
        int writer = -1, i = -1;
        auto base = f.name.substr(f.name.rfind('/') + 1);
        if (std::sscanf(base.c_str(), "rank_%d_%d.dat", &writer, &i) != 2 || writer != f.rank) {
          fail("the listing names " + f.name + " for rank " + std::to_string(f.rank));
          valid = false;
          break;
        }
        valid = verify(f.name, writer, i) && valid;
      }
      check(rt->complete_restart(valid), "SCR_Complete_restart");
    }
  };

  std::string sim_nodes(int ranks) const {
    int per_node = std::max(1, std::min(o_.ranks_per_node, ranks / 8));
    std::string nodes;
    for (int n = 0; n < ranks / per_node; ++n) nodes += (n ? ",n" : "n") + std::to_string(n);
    return nodes;
  }

  rt::Config config(int ranks) const {
    std::map<std::string, std::string> vars{
        {"SCR_PREFIX", prefix_},
        {"SCR_CACHE_BASE", cache_},
        {"SCR_CNTL_BASE", cntl_},
        {"SCR_SIM_NODES", sim_nodes(ranks)},
        {"SCR_CACHE_BYPASS", "0"},
        // Only at Finalize, of the newest checkpoint.
        {"SCR_FLUSH", "1000"},
        {"SCR_JOB_ID", "scale"},
        {"SCR_USER_NAME", "bench"},
        {"SCR_CONF_FILE", root_ + "/scale.conf"},
        {"SCR_SYSTEM_CONF_FILE", root_ + "/no-system.conf"},
    };
    auto loaded = rt::Config::load(rt::ConfigSources::from_variables(vars, io::Env::posix(), prefix_));
    if (!loaded.ok()) throw std::runtime_error("scale configuration: " + loaded.status().to_string());
    return std::move(loaded).value();
  }

  // One job of `ranks` ranks, each running `body`; its steps join the result.
  bool job(int ranks, const std::function<void(Rank&)>& body) {
    rt::Config cfg = config(ranks);
    std::vector<Samples> samples(16);
    for (auto& s : samples) {
      s.messages.assign(static_cast<size_t>(ranks), 0);
      s.bytes.assign(static_cast<size_t>(ranks), 0);
      s.cpu_s.assign(static_cast<size_t>(ranks), 0);
    }
    size_t steps = 0;
    try {
      mpi::InProcess(ranks, o_.stack_bytes).run([&](mpi::Comm& world) {
        if (world.rank() == 0) count_this_thread();
        Rank me{*this, world, cfg, samples, nullptr};
        body(me);
        if (world.rank() == 0) steps = me.next;
      });
    } catch (const std::exception& e) {
      fail(e.what());
      return false;
    }
    for (size_t k = 0; k < steps; ++k) add(samples[k], ranks);
    std::lock_guard<std::mutex> lock(mutex_);
    return result_.failures.empty();
  }

  void add(const Samples& s, int ranks) {
    auto it = std::find_if(result_.steps.begin(), result_.steps.end(),
                           [&](const Step& x) { return x.name == s.name && x.ranks == ranks; });
    if (it == result_.steps.end()) {
      result_.steps.push_back(Step{s.name, ranks});
      it = result_.steps.end() - 1;
    }
    Step& st = *it;
    ++st.times;
    st.wall_s += s.wall_s;
    uint64_t m = 0, b = 0, msum = 0, bsum = 0;
    for (size_t r = 0; r < s.messages.size(); ++r) {
      m = std::max(m, s.messages[r]);
      b = std::max(b, s.bytes[r]);
      msum += s.messages[r];
      bsum += s.bytes[r];
    }
    st.messages_max += m;
    st.bytes_max += b;
    st.messages_mean += static_cast<double>(msum) / ranks;
    st.bytes_mean += static_cast<double>(bsum) / ranks;
    double cmax = 0, csum = 0;
    for (double c : s.cpu_s) {
      cmax = std::max(cmax, c);
      csum += c;
    }
    st.cpu_max_s += cmax;
    st.cpu_mean_s += csum / ranks;
    st.rank0_cpu_s += s.cpu_s.at(0);
    st.rank0_peak_bytes = std::max(st.rank0_peak_bytes, s.rank0_peak);
    st.rank0_step_bytes = std::max(st.rank0_step_bytes, s.rank0_step);
  }

  void fail(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (result_.failures.size() < 20) result_.failures.push_back(what);
  }
  void restored(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    result_.restored.push_back(name);
  }

  void lose_node(const std::string& node) {
    for (const auto& base : {cache_, cntl_}) fs::remove_all(base + "/" + node);
  }
  void lose_every_node() {
    for (const auto& base : {cache_, cntl_}) {
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(base, ec)) fs::remove_all(e.path());
    }
  }

  // The largest metadata file of each kind, kinds named by file name with
  // digits folded ("filemap_#.scrinfo"); user files and redundancy data
  // are not metadata.
  void measure_files() {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root_, ec); it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (ec || !it->is_regular_file(ec)) continue;
      std::string name = it->path().filename().string();
      if (name.rfind("rank_", 0) == 0 || name == "scale.conf") continue;
      std::string kind;
      for (char c : name) {
        if (c >= '0' && c <= '9') {
          if (kind.empty() || kind.back() != '#') kind += '#';
        } else {
          kind += c;
        }
      }
      uint64_t size = it->file_size(ec);
      uint64_t& largest = result_.largest_files[kind];
      largest = std::max(largest, size);
    }
  }

  const LifeOptions o_;
  std::string root_, prefix_, cache_, cntl_;
  std::mutex mutex_;
  LifeResult result_;
};

}  // namespace

std::string newest_checkpoint() { return checkpoint_name(kCheckpoints); }

LifeResult run_job_life(const LifeOptions& options) { return Life(options).run(); }

}  // namespace scr::bench
