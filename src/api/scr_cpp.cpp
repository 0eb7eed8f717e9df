// The C++ API of include/scr/scr.hpp: Status from the runtime becomes
// scr::Error here, and only here.
#include "scr/scr.hpp"

#include <exception>

#include "api/api_state.hpp"
#include "api/cpp_errors.hpp"
#include "scr.h"

namespace scr {
namespace {

ErrorKind kind_of(Errc code) {
  switch (code) {
    case Errc::ok: break;
    case Errc::invalid_argument: return ErrorKind::invalid_argument;
    case Errc::not_found: return ErrorKind::not_found;
    case Errc::io_error: return ErrorKind::io_error;
    case Errc::no_space: return ErrorKind::no_space;
    case Errc::corrupt: return ErrorKind::corrupt;
    case Errc::bad_state: return ErrorKind::bad_state;
    case Errc::mpi_error: return ErrorKind::communication;
    case Errc::unsupported: return ErrorKind::unsupported;
    case Errc::unrecoverable: return ErrorKind::unrecoverable;
    case Errc::permission: return ErrorKind::permission;
  }
  return ErrorKind::other;
}

void check(const Status& st) {
  if (!st.ok()) throw Exception(st.message(), kind_of(st.code()));
}

template <class T>
T check(Result<T> r) {
  check(r.status());
  return std::move(r).value();
}

rt::Runtime& runtime(const char* call) { return *check(api::runtime(call)); }

// More exceptions in flight than when the object was made: it is being
// destroyed by one.
bool unwinding(int at_construction) { return std::uncaught_exceptions() > at_construction; }

// For destructors: complete a phase left open, unless SCR is gone already
// (finalized, or never initialized): then there is nothing to complete, and
// no collective may run. Destroyed by an exception, the phase is abandoned
// instead (api::abandon): the other processes may be in a collective of
// their own, or never come to this one. Never throws.
template <class Complete>
void complete_left_open(const char* call, int at_construction, Complete complete) noexcept {
  try {
    if (unwinding(at_construction)) return api::abandon(call);
    auto rt = api::runtime(call);
    if (rt) api::report(call, complete(**rt));
  } catch (...) {
    // A destructor must not throw; the failure was reported where possible.
  }
}

}  // namespace

void api::throw_if_failed(const Status& st) { check(st); }

void Library::config(const std::string& key_value) { check(api::config(key_value)); }

std::optional<std::string> Library::query(const std::string& key) { return check(api::config(key)); }

std::string Library::version() { return SCR_VERSION; }

Library::Library() { check(api::init()); }

Library::~Library() {
  if (finalized_) return;
  if (unwinding(unwinding_)) api::abandon("SCR_Finalize");
  // An abandoned session ends without a collective; abandon() said why.
  bool quiet = api::abandoned();
  Status st = api::finalize();
  if (!quiet) api::report("SCR_Finalize", st);
}

void Library::finalize() {
  finalized_ = true;
  check(api::finalize());
}

std::optional<std::string> Library::restart_name() {
  bool have = false;
  std::string name;
  check(runtime("SCR_Have_restart").have_restart(&have, &name));
  return have ? std::optional<std::string>(name) : std::nullopt;
}

bool Library::need_checkpoint() { return check(runtime("SCR_Need_checkpoint").need_checkpoint()); }
bool Library::should_exit() { return check(runtime("SCR_Should_exit").should_exit()); }
void Library::set_current(const std::string& name) { check(runtime("SCR_Current").set_current(name)); }
void Library::drop(const std::string& name) { check(runtime("SCR_Drop").drop(name)); }
void Library::remove(const std::string& name) { check(runtime("SCR_Delete").remove(name)); }

Output::Output(Library&, const std::string& name, Flags flags) {
  check(runtime("SCR_Start_output").start_output(name, static_cast<int>(flags)));
}

Output::Output(Library&) {
  check(runtime("SCR_Start_checkpoint").start_output("", static_cast<int>(Flags::checkpoint)));
}

Output::~Output() {
  if (open_)
    complete_left_open("SCR_Complete_output", unwinding_, [](rt::Runtime& rt) { return rt.complete_output(false); });
}

std::filesystem::path Output::route(const std::filesystem::path& file) {
  return check(runtime("SCR_Route_file").route_file(file.string()));
}

void Output::commit(bool valid) {
  open_ = false;
  check(runtime("SCR_Complete_output").complete_output(valid));
}

Restart::Restart(Library&) { name_ = check(runtime("SCR_Start_restart").start_restart()); }

Restart::~Restart() {
  if (open_)
    complete_left_open("SCR_Complete_restart", unwinding_, [](rt::Runtime& rt) { return rt.complete_restart(false); });
}

std::filesystem::path Restart::route(const std::filesystem::path& file) {
  return check(runtime("SCR_Route_file").route_file(file.string()));
}

int Restart::ranks() const { return check(runtime("SCRPP_Restart_ranks").restart_ranks()); }

std::vector<RestartFile> Restart::files() const {
  rt::Runtime& rt = runtime("SCRPP_Restart_file_count");
  rt::RestartTable* listed = check(rt.restart_listing());
  std::vector<RestartFile> out;
  out.reserve(listed->size());
  for (uint64_t i = 0; i < listed->size(); ++i) {
    rt::TableFile f = check(listed->at(i));
    out.push_back({rt.routable_name(f.name), f.rank, f.size});
  }
  return out;
}

void Restart::commit(bool valid) {
  open_ = false;
  check(runtime("SCR_Complete_restart").complete_restart(valid));
}

}  // namespace scr
