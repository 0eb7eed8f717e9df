#include "api/api_state.hpp"

#include <mutex>

#include "common/log.hpp"
#include "mpi/mpi_comm.hpp"
#include "runtime/config/config_line.hpp"

namespace scr::api {
namespace {

struct State {
  std::mutex mutex;  // SCR_Config may race with nothing else, but be safe
  std::optional<rt::Config> config;
  std::unique_ptr<rt::Runtime> runtime;
  bool finalized = false;
  bool disabled = false;  // SCR_Init saw SCR_ENABLE=0
  // The last SCR_Init (or SCRPP_Init_comm) failed: later calls say so rather
  // than "called before SCR_Init", since the program did call it.
  bool init_failed = false;
  // Set by abandon(): the call an unwinding exception kept from running.
  std::string abandoned;
  // The first set SCR_Config refused before SCR_Init (refuse_at_init).
  std::string refused_config;
  // The processes of the session, from SCR_Init (or SCRPP_Init_comm) to
  // SCR_Finalize: the runtime's collectives and the agreements around it.
  mpi::Comm comm;
};

State& state() {
  static State s;
  return s;
}

// Load environment and files on first use; SCR_Config settings stack on top.
Result<rt::Config*> loaded_config() {
  State& s = state();
  if (!s.config) {
    SCR_ASSIGN_OR_RETURN(rt::Config c, rt::Config::load(rt::ConfigSources::process()));
    s.config = std::move(c);
  }
  return &*s.config;
}

}  // namespace

Result<std::optional<std::string>> config(const std::string& text) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  SCR_ASSIGN_OR_RETURN(rt::Config * c, loaded_config());
  // A query ("SCR_FLUSH", "CKPT=0 TYPE") is fine at any time; a line that does
  // not parse gets its own error from apply_app_config.
  auto line = rt::parse_config_line(text);
  bool is_set = line.ok() && !line->is_query();
  if (is_set && s.runtime)
    return Error(Errc::bad_state, "SCR_Config(\"" + text +
                                      "\") sets a parameter after SCR_Init; call it before SCR_Init");
  // A key SCR++ does not know is kept, as SCR keeps it, with a warning.
  std::vector<std::string> unknown;
  auto answer = c->apply_app_config(text, &unknown);
  for (const auto& what : unknown)
    log::warn_once("SCR_Config: " + what + "; stored, not used by SCR++");
  return answer;
}

void refuse_at_init(const std::string& text, const Status& why) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto line = rt::parse_config_line(text);
  if (s.runtime || !s.refused_config.empty() || (line.ok() && line->is_query())) return;
  s.refused_config = "SCR_Config(\"" + text + "\") was refused: " + why.message() +
                     "; SCR_Init stops, as for a bad value in the environment or a config file";
}

namespace {

// Before a session starts: MPI is up and no session is open.
Status check_can_start(const char* call) {
  State& s = state();
  if (!mpi::initialized()) return Error(Errc::bad_state, std::string(call) + " called before MPI was initialized");
  if (s.runtime || s.disabled) return Error(Errc::bad_state, std::string(call) + " called twice");
  return Status::Ok();
}

// Starts a session over s.comm, whose processes sit at `launch` among all of
// the launch's processes.
Status start_session(const rt::Launch& launch);

}  // namespace

Status init() {
  SCR_TRY(check_can_start("SCR_Init"));
  state().comm = mpi::world();
  Status st = start_session(rt::Launch{mpi::world().rank(), mpi::world().size()});
  state().init_failed = !st.ok();
  return st;
}

Status init(mpi::Comm comm) {
  SCR_TRY(check_can_start("SCRPP_Init_comm"));
  state().comm = std::move(comm);
  Status st = start_session(rt::Launch{mpi::world().rank(), mpi::world().size()});
  state().init_failed = !st.ok();
  return st;
}

namespace {

Status start_session(const rt::Launch& launch) {
  State& s = state();
  // After SCR_Finalize a new, complete session starts, as in SCR: the
  // configuration is read again and the runtime finds the cache and prefix
  // as the last session left them.
  s.finalized = false;
  // Messages from here on say which process wrote them, configuration errors included.
  log::set_rank(s.comm.rank());
  Status loaded;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto c = loaded_config();
    loaded = c.ok() ? (*c)->reload() : c.status();
  }
  // Rank 0's configuration is the one used, but a file error must stop
  // everyone, and every process says which (once: see report).
  SCR_TRY(mpi::agree(s.comm, loaded));
  // Said once: a later SCR_Init runs with what SCR_Config then holds.
  Status refused = s.refused_config.empty() ? Status::Ok() : Error(Errc::invalid_argument, s.refused_config);
  s.refused_config.clear();
  SCR_TRY(mpi::agree(s.comm, refused));
  // SCR_ENABLE=0: no directory, no file, no collective; every call succeeds.
  // Rank 0's value decides for everyone (a value set by SCR_Config on one
  // rank only, or a node's differing system file, must not split the job
  // between the disabled and the collective Runtime::init).
  int enabled = 1;
  if (auto e = s.config->get_bool("SCR_ENABLE"); e && !*e) enabled = 0;
  mpi::bcast_int(s.comm, enabled, 0);
  if (!enabled) {
    s.disabled = true;
    return Status::Ok();
  }
  auto rt = rt::Runtime::init(*s.config, s.comm, launch);
  // Every process ends SCR_Init with one verdict, and an error names the
  // process it came from (which is what lets report() print it once).
  SCR_TRY(mpi::agree(s.comm, rt.status()));
  s.runtime = std::move(rt).value();
  return Status::Ok();
}

}  // namespace

bool disabled() { return state().disabled; }

Status finalize() {
  State& s = state();
  // The settings of SCR_Config end with the session (SCR frees them at
  // SCR_Finalize too): a later SCR_Init reads environment and files afresh.
  auto end_session = [&] {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.config.reset();
    s.finalized = true;
    s.comm = mpi::Comm();
  };
  if (s.disabled) {
    s.disabled = false;
    end_session();
    return Status::Ok();
  }
  if (!s.runtime)
    return Error(Errc::bad_state, s.finalized     ? "SCR_Finalize called twice"
                                  : s.init_failed ? "SCR_Finalize called after SCR_Init failed (its error is above)"
                                                  : "SCR_Finalize called before SCR_Init");
  if (!s.abandoned.empty()) {
    // Only what is local: the runtime's destructor waits for this process's
    // background copies and releases its locks; no flush, no agreement.
    std::string why = s.abandoned;
    s.runtime.reset();
    s.abandoned.clear();
    end_session();
    return Error(Errc::bad_state, "the session had stopped on this process (" + why +
                                      " was left by an exception); ended here without a flush or a "
                                      "collective");
  }
  Status st = s.runtime->finalize();
  s.runtime.reset();
  end_session();
  return st;
}

Result<rt::Runtime*> runtime(const char* call) {
  State& s = state();
  if (s.disabled) return Error(Errc::bad_state, std::string(call) + ": SCR is disabled (SCR_ENABLE=0)");
  if (!s.runtime)
    return Error(Errc::bad_state,
                 std::string(call) + (s.finalized     ? " called after SCR_Finalize"
                                      : s.init_failed ? " called after SCR_Init failed (its error is above): "
                                                        "nothing is checkpointed or restarted"
                                                      : " called before SCR_Init"));
  if (!s.abandoned.empty())
    return Error(Errc::bad_state, std::string(call) + ": SCR++ stopped on this process when an exception left " +
                                      s.abandoned + "; end the job (MPI_Abort) and run it again");
  return s.runtime.get();
}

void abandon(const char* call) noexcept {
  try {
    State& s = state();
    if (!s.runtime || !s.abandoned.empty()) return;  // nothing open, or said already
    s.abandoned = call;
    std::string what = std::string(call) + ": an exception on this process left the " +
                       (std::string_view(call) == "SCR_Finalize" ? "session" : "phase") +
                       " open; SCR++ enters no collective (other processes may be waiting in one this "
                       "process will not reach) and stops here; end the job (MPI_Abort): the next run "
                       "discards any dataset left open and restarts from the last complete checkpoint";
    log::error(what);
    s.runtime->context().events.record({"API_ERROR", "", 0, -1, -1, what});
  } catch (...) {
    // A destructor calls this: nothing may escape, and there is nothing left to tell.
  }
}

bool abandoned() { return !state().abandoned.empty(); }

namespace {
// SCR_Init's errors are agreed by every process, and the message names the
// one it came from: rank 0's copy is enough, where N copies would flood a
// large job's output.
bool said_by_rank_zero(const char* call, const Status& st) {
  std::string_view c(call);
  if ((c != "SCR_Init" && c != "SCRPP_Init_comm") || !mpi::names_a_rank(st.message()) || !mpi::initialized())
    return false;
  // The agreement ran over the session's processes (kept until SCR_Finalize).
  const mpi::Comm& comm = state().comm;
  return (comm.valid() ? comm.rank() : mpi::world().rank()) != 0;
}

// The last error line, for bindings that carry it in their exceptions.
struct LastError {
  std::mutex mutex;
  std::string line;
};
LastError& last() {
  static LastError l;
  return l;
}
}  // namespace

void report(const char* call, const Status& st) {
  if (st.ok()) return;
  // A message that already begins with the call ("SCR_Finalize called
  // twice", "SCR_Init: ...") is not prefixed with it a second time.
  const std::string& msg = st.message();
  std::string_view c(call);
  bool named = msg.size() > c.size() && msg.compare(0, c.size(), c) == 0 &&
               (msg[c.size()] == ' ' || msg[c.size()] == ':');
  std::string line = named ? msg : std::string(call) + ": " + msg;
  {
    std::lock_guard<std::mutex> lock(last().mutex);
    last().line = line;
  }
  if (said_by_rank_zero(call, st)) return;
  log::error(line);
  if (State& s = state(); s.runtime) s.runtime->context().events.record({"API_ERROR", "", 0, -1, -1, line});
}

std::string last_error() {
  std::lock_guard<std::mutex> lock(last().mutex);
  return last().line;
}

}  // namespace scr::api
