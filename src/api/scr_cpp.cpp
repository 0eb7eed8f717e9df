// The C++ API of include/scr/scr.hpp: Status from the runtime becomes
// scr::Error here, and only here.
#include "scr/scr.hpp"

#include "api/api_state.hpp"
#include "scr.h"

namespace scr {
namespace {

void check(const Status& st) {
  if (!st.ok()) throw Exception(st.message());
}

template <class T>
T check(Result<T> r) {
  if (!r) throw Exception(r.status().message());
  return std::move(r).value();
}

rt::Runtime& runtime(const char* call) { return *check(api::runtime(call)); }

}  // namespace

void Library::config(const std::string& key_value) { check(api::config(key_value)); }

std::optional<std::string> Library::query(const std::string& key) { return check(api::config(key)); }

std::string Library::version() { return SCR_VERSION; }

Library::Library() { check(api::init()); }

Library::~Library() {
  if (!finalized_) api::report("SCR_Finalize", api::finalize());
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
  if (open_) api::report("SCR_Complete_output", runtime("SCR_Complete_output").complete_output(false));
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
  if (open_) api::report("SCR_Complete_restart", runtime("SCR_Complete_restart").complete_restart(false));
}

std::filesystem::path Restart::route(const std::filesystem::path& file) {
  return check(runtime("SCR_Route_file").route_file(file.string()));
}

int Restart::ranks() const { return check(runtime("SCRPP_Restart_ranks").restart_ranks()); }

std::vector<RestartFile> Restart::files() const {
  const auto* listed = check(runtime("SCRPP_Restart_file_count").restart_listing());
  std::vector<RestartFile> out;
  out.reserve(listed->size());
  for (const auto& f : *listed) out.push_back({f.name, f.rank, f.size});
  return out;
}

void Restart::commit(bool valid) {
  open_ = false;
  check(runtime("SCR_Complete_restart").complete_restart(valid));
}

}  // namespace scr
