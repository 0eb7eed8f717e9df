// A scene for scr_scavenge tests: 4 in-process ranks on 4 simulated nodes
// (XOR, one set of 4) write checkpoints to the cache, and the prefix too
// when asked, below a private directory in /dev/shm; then the real
// scr_scavenge runs (as scr_run calls it after the job's last run), or its
// work in the test's process through an Env that fails on purpose.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <map>
#include <string>

#include "common/strings.hpp"
#include "io/files.hpp"
#include "tools/scr_scavenge/run.hpp"
#include "../runtime/sim_job.hpp"

namespace scr::tools::testing {

struct Scene : rt::testing::SimDir {
  Scene() : SimDir("scr_scavenge_scene") { settings["SCR_SET_SIZE"] = "4"; }
  // 4 ranks write checkpoint `name`, every byte `fill`; `flush`: to the prefix too.
  void write(const std::string& name, char fill, bool flush) {
    settings["SCR_FLUSH"] = flush ? "1" : "0";
    rt::testing::write_same_names(settings, prefix, name, fill);
    settings["SCR_FLUSH"] = "0";
  }
  // "one" flushed ('o' bytes), then "two" ('t') under the same names, in cache only.
  void one_flushed_then_two_cached() {
    write("one", 'o', true);
    write("two", 't', false);
  }
  // scr_scavenge's exit code.
  int scavenge() const {
    std::string cmd = "env";
    for (const char* key : {"SCR_CACHE_BASE", "SCR_CNTL_BASE", "SCR_SIM_NODES", "SCR_JOB_ID", "SCR_USER_NAME",
                            "SCR_SYSTEM_CONF_FILE", "SCR_CACHE_BYPASS"})
      cmd += " " + std::string(key) + "='" + settings.at(key) + "'";
    cmd += " " SCR_SCAVENGE_BIN " --prefix '" + prefix + "' >/dev/null 2>&1";
    int rc = std::system(cmd.c_str());
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
  // scr_scavenge's work in this process, through `env`.
  Result<tools::scavenge::Report> scavenge_in_process(io::Env& env) const {
    tools::scavenge::Options o;
    o.prefix = prefix;
    o.cache_base = settings.at("SCR_CACHE_BASE");
    o.cntl_base = settings.at("SCR_CNTL_BASE");
    for (const auto& node : str::split(settings.at("SCR_SIM_NODES"), ',')) o.nodes.push_back(node);
    o.user = settings.at("SCR_USER_NAME");
    o.job_id = settings.at("SCR_JOB_ID");
    return tools::scavenge::run_scavenge(env, o);
  }
  void expect_files(char fill) const { rt::testing::expect_same_names(prefix, fill); }
};

}  // namespace scr::tools::testing
