// libFuzzer target for the config file parser (docs/config.md).
//
// Each input is parsed as the text of a config file with a small fixed
// environment for $VAR expansion. The parser must either reject it with an
// invalid_argument error that names a line ("<file>:<n>: ...") or return a
// layer that survives the broadcast round trip (to_tree -> from_tree) exactly,
// since rank 0 ships parsed layers to every other rank. Any mismatch aborts,
// which libFuzzer reports as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_checks.hpp"
#include "runtime/config/config_file.hpp"

namespace {

[[noreturn]] void fail(const char* what) { scr::fuzz::fail("config_fuzz", what); }

const char* fuzz_env(const char* name) {
  std::string_view n(name);
  if (n == "HOME") return "/home/user";
  if (n == "EMPTY") return "";
  if (n == "SPACED") return "a b";
  return nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string origin = "fuzz.conf";
  auto layer = scr::rt::parse_config_text(text, scr::rt::Layer::user_file, origin, fuzz_env);
  if (!layer.ok()) {
    const scr::Status& st = layer.status();
    if (st.code() != scr::Errc::invalid_argument) fail("rejected with a code other than invalid_argument");
    if (st.message().rfind(origin + ":", 0) != 0) fail("error does not start with file:line");
    return 0;
  }
  scr::kv::Tree tree = layer->to_tree();
  auto back = scr::rt::ConfigLayer::from_tree(tree, scr::rt::Layer::user_file);
  if (!back.ok()) fail("parsed layer does not load from its own tree");
  if (back->to_tree() != tree) fail("layer changed across to_tree/from_tree");
  return 0;
}
