// The C API of include/scr.h: a thin layer over the runtime. Every function
// catches at the boundary, prints the cause on stderr and returns a code.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cstring>
#include <new>
#include <utility>

#include "api/api_state.hpp"
#include "api/c_boundary.hpp"
#include "scr.h"
#include "scr/scr_ext.h"

namespace {

using scr::api::guarded;
using scr::api::kFailure;

scr::Status copy_out(const std::string& s, char* buf, const char* what) {
  if (!buf) return scr::Error(scr::Errc::invalid_argument, std::string(what) + " buffer is NULL");
  if (s.size() >= SCR_MAX_FILENAME)
    return scr::Error(scr::Errc::invalid_argument, std::string(what) + " longer than SCR_MAX_FILENAME");
  std::memcpy(buf, s.c_str(), s.size() + 1);
  return scr::Status::Ok();
}

// fn(Runtime&) does the call; with SCR_ENABLE=0 `disabled()` fills the
// outputs instead (a no-op that succeeds, as in SCR).
template <class F, class D>
int with_runtime(const char* call, F&& fn, D&& disabled) {
  return guarded(call, [&]() -> scr::Status {
    if (scr::api::disabled()) return disabled();
    SCR_ASSIGN_OR_RETURN(scr::rt::Runtime * rt, scr::api::runtime(call));
    return fn(*rt);
  });
}

template <class F>
int with_runtime(const char* call, F&& fn) {
  return with_runtime(call, std::forward<F>(fn), [] { return scr::Status::Ok(); });
}

// The output arguments of a query are written whatever happens: 0 (and an
// empty name) unless the call succeeds, never what the caller left there.
void clear_outputs(int* flag, char* name = nullptr) {
  if (flag) *flag = 0;
  if (name) name[0] = '\0';
}

scr::Status set_flag(int* flag, int value) {
  if (!flag) return scr::Error(scr::Errc::invalid_argument, "NULL flag");
  *flag = value;
  return scr::Status::Ok();
}

}  // namespace

extern "C" {

int SCR_Init(void) { return guarded("SCR_Init", [] { return scr::api::init(); }); }

int SCR_Finalize(void) { return guarded("SCR_Finalize", [] { return scr::api::finalize(); }); }

const char* SCR_Config(const char* config) {
  const char* result = nullptr;
  guarded("SCR_Config", [&]() -> scr::Status {
    if (!config) return scr::Error(scr::Errc::invalid_argument, "NULL configuration string");
    auto value = scr::api::config(config);
    if (!value) {
      scr::api::refuse_at_init(config, value.status());
      return value.status();
    }
    if (*value) result = strdup((*value)->c_str());
    return scr::Status::Ok();
  });
  return result;
}

int SCRPP_Config_checked(const char* config, char** value) {
  if (value) *value = nullptr;
  return guarded("SCR_Config", [&]() -> scr::Status {
    if (!config) return scr::Error(scr::Errc::invalid_argument, "NULL configuration string");
    SCR_ASSIGN_OR_RETURN(auto answer, scr::api::config(config));
    if (answer && value) {
      *value = strdup(answer->c_str());
      if (!*value) throw std::bad_alloc();
    }
    return scr::Status::Ok();
  });
}

const char* SCR_Configf(const char* format, ...) {
  if (!format) return SCR_Config(nullptr);
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, format, args);
  va_end(args);
  return SCR_Config(text.c_str());
}

int SCR_Route_file(const char* name, char* file) {
  int rc = with_runtime("SCR_Route_file", [&](scr::rt::Runtime& rt) -> scr::Status {
    if (!name) return scr::Error(scr::Errc::invalid_argument, "NULL file name");
    SCR_ASSIGN_OR_RETURN(std::string path, rt.route_file(name));
    return copy_out(path, file, "file");
  }, [&]() -> scr::Status {
    if (!name) return scr::Error(scr::Errc::invalid_argument, "NULL file name");
    return copy_out(name, file, "file");
  });
  // A failed route leaves an empty string, never the path of an earlier call
  // that a program ignoring the return code would then use. (Only now: name
  // and file may be the same buffer, as SCR allows.)
  if (rc != SCR_SUCCESS && file) file[0] = '\0';
  return rc;
}

int SCR_Have_restart(int* flag, char* name) {
  clear_outputs(flag, name);
  return with_runtime("SCR_Have_restart", [&](scr::rt::Runtime& rt) -> scr::Status {
    if (!flag) return scr::Error(scr::Errc::invalid_argument, "NULL flag");
    bool have = false;
    std::string n;
    SCR_TRY(rt.have_restart(&have, &n));
    if (name) SCR_TRY(copy_out(n, name, "name"));
    *flag = have ? 1 : 0;
    return scr::Status::Ok();
  }, [&] { return set_flag(flag, 0); });
}

int SCR_Start_restart(char* name) {
  return with_runtime("SCR_Start_restart", [&](scr::rt::Runtime& rt) -> scr::Status {
    SCR_ASSIGN_OR_RETURN(std::string n, rt.start_restart());
    return name ? copy_out(n, name, "name") : scr::Status::Ok();
  }, [&] {
    if (name) name[0] = '\0';
    return scr::Status::Ok();
  });
}

int SCR_Complete_restart(int valid) {
  return with_runtime("SCR_Complete_restart",
                      [&](scr::rt::Runtime& rt) { return rt.complete_restart(valid != 0); });
}

int SCR_Need_checkpoint(int* flag) {
  clear_outputs(flag);
  return with_runtime("SCR_Need_checkpoint", [&](scr::rt::Runtime& rt) -> scr::Status {
    if (!flag) return scr::Error(scr::Errc::invalid_argument, "NULL flag");
    SCR_ASSIGN_OR_RETURN(bool need, rt.need_checkpoint());
    *flag = need ? 1 : 0;
    return scr::Status::Ok();
  }, [&] { return set_flag(flag, 0); });
}

int SCR_Start_checkpoint(void) {
  return with_runtime("SCR_Start_checkpoint",
                      [](scr::rt::Runtime& rt) { return rt.start_output("", SCR_FLAG_CHECKPOINT); });
}

int SCR_Complete_checkpoint(int valid) {
  return with_runtime("SCR_Complete_checkpoint",
                      [&](scr::rt::Runtime& rt) { return rt.complete_output(valid != 0); });
}

int SCR_Start_output(const char* name, int flags) {
  return with_runtime("SCR_Start_output", [&](scr::rt::Runtime& rt) {
    return rt.start_output(name ? name : "", flags);
  });
}

int SCR_Complete_output(int valid) {
  return with_runtime("SCR_Complete_output",
                      [&](scr::rt::Runtime& rt) { return rt.complete_output(valid != 0); });
}

int SCR_Current(const char* name) {
  return with_runtime("SCR_Current", [&](scr::rt::Runtime& rt) {
    return name ? rt.set_current(name) : scr::Error(scr::Errc::invalid_argument, "NULL name");
  });
}

int SCR_Drop(const char* name) {
  return with_runtime("SCR_Drop", [&](scr::rt::Runtime& rt) {
    return name ? rt.drop(name) : scr::Error(scr::Errc::invalid_argument, "NULL name");
  });
}

int SCR_Delete(const char* name) {
  return with_runtime("SCR_Delete", [&](scr::rt::Runtime& rt) {
    return name ? rt.remove(name) : scr::Error(scr::Errc::invalid_argument, "NULL name");
  });
}

char* SCR_Get_version(void) {
  static char version[] = SCR_VERSION;
  return version;
}

int SCR_Should_exit(int* flag) {
  clear_outputs(flag);
  return with_runtime("SCR_Should_exit", [&](scr::rt::Runtime& rt) -> scr::Status {
    if (!flag) return scr::Error(scr::Errc::invalid_argument, "NULL flag");
    SCR_ASSIGN_OR_RETURN(bool exit, rt.should_exit());
    *flag = exit ? 1 : 0;
    return scr::Status::Ok();
  }, [&] { return set_flag(flag, 0); });
}

// Extensions (scr/scr_ext.h). With SCR_ENABLE=0 there is no checkpoint.
int SCRPP_Last_error(char* buf, size_t size) {
  if (!buf || size == 0) return kFailure;
  std::string line = scr::api::last_error();
  size_t n = std::min(line.size(), size - 1);
  std::memcpy(buf, line.data(), n);
  buf[n] = '\0';
  return SCR_SUCCESS;
}

int SCRPP_Restart_ranks(int* ranks) {
  return with_runtime("SCRPP_Restart_ranks", [&](scr::rt::Runtime& rt) -> scr::Status {
    if (!ranks) return scr::Error(scr::Errc::invalid_argument, "NULL ranks");
    SCR_ASSIGN_OR_RETURN(*ranks, rt.restart_ranks());
    return scr::Status::Ok();
  }, [&] { return set_flag(ranks, 0); });
}

int SCRPP_Restart_file_count(int* count) {
  return with_runtime("SCRPP_Restart_file_count", [&](scr::rt::Runtime& rt) -> scr::Status {
    if (!count) return scr::Error(scr::Errc::invalid_argument, "NULL count");
    SCR_ASSIGN_OR_RETURN(auto files, rt.restart_listing());
    if (files->size() > static_cast<uint64_t>(INT_MAX))
      return scr::Error(scr::Errc::unsupported, "the checkpoint has " + std::to_string(files->size()) +
                                                    " files, more than an int counts");
    *count = static_cast<int>(files->size());
    return scr::Status::Ok();
  }, [&] { return set_flag(count, 0); });
}

int SCRPP_Restart_file(int index, char* name, int* rank, unsigned long long* size) {
  return with_runtime("SCRPP_Restart_file", [&](scr::rt::Runtime& rt) -> scr::Status {
    SCR_ASSIGN_OR_RETURN(auto files, rt.restart_listing());
    if (index < 0)
      return scr::Error(scr::Errc::invalid_argument, "file index " + std::to_string(index) +
                                                         " is out of range (the checkpoint has " +
                                                         std::to_string(files->size()) + " files)");
    SCR_ASSIGN_OR_RETURN(scr::rt::TableFile f, files->at(static_cast<uint64_t>(index)));
    if (name) SCR_TRY(copy_out(rt.routable_name(f.name), name, "name"));
    if (rank) *rank = f.rank;
    if (size) *size = f.size;
    return scr::Status::Ok();
  }, [&] { return scr::Error(scr::Errc::invalid_argument, "SCR is disabled (SCR_ENABLE=0): no checkpoint files"); });
}

}  // extern "C"
