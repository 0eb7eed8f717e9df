// Shared helpers for the configuration tests: a private temporary directory,
// a fake process environment, and config sources wired to both.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <map>
#include <string>

#include "io/env.hpp"
#include "io/files.hpp"
#include "runtime/config/config.hpp"

namespace scr::rt::testing {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/scr_config_test.XXXXXX";
    if (char* p = ::mkdtemp(tmpl)) path_ = p;
    else ADD_FAILURE() << "mkdtemp failed";
  }
  ~TempDir() { (void)io::remove_tree(io::Env::posix(), path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // Writes name under the directory and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    std::string p = file(name);
    Status st = io::write_file_atomic(io::Env::posix(), p, text);
    EXPECT_TRUE(st.ok()) << st.to_string();
    return p;
  }

 private:
  std::string path_;
};

// A process environment the test controls. By default it points the system
// config file into the temp dir, so the installed system file never leaks into tests.
struct FakeEnvironment {
  std::map<std::string, std::string> vars;

  ConfigSources sources(const TempDir& dir) {
    vars.emplace("SCR_SYSTEM_CONF_FILE", dir.file("system.conf"));
    ConfigSources s;
    s.getenv = [this](const char* name) -> const char* {
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
    s.env_names = [this] {
      std::vector<std::string> names;
      for (const auto& [k, v] : vars) names.push_back(k);
      return names;
    };
    s.env = &io::Env::posix();
    s.cwd = dir.path();
    return s;
  }
};

// Status/Result helpers: the message must mention every needle.
inline ::testing::AssertionResult FailsWith(const Status& st,
                                            std::initializer_list<std::string> needles) {
  if (st.ok()) return ::testing::AssertionFailure() << "expected an error, got ok";
  for (const auto& n : needles)
    if (st.message().find(n) == std::string::npos)
      return ::testing::AssertionFailure() << "message '" << st.message() << "' lacks '" << n << "'";
  return ::testing::AssertionSuccess();
}

}  // namespace scr::rt::testing
