#include "runtime/config/descriptors.hpp"

#include <algorithm>
#include <cassert>

namespace scr::rt {
namespace {

// Reed-Solomon over GF(2^8): data and parity members together at most 256.
constexpr int kMaxRsMembers = 256;

Status invalid(const std::string& label, const std::string& why) {
  return Error(Errc::invalid_argument, label + ": " + why);
}

// Items are validated when configured, so their text always parses.
int item_int(const kv::Tree& entry, std::string_view item, int fallback) {
  return static_cast<int>(entry.int_or(item, fallback));
}
bool item_bool(const kv::Tree& entry, std::string_view item, bool fallback) {
  auto v = entry.value(item);
  return v ? *v == "1" : fallback;
}

std::string label_of(const Config& config, std::string_view table, const std::string& head) {
  std::string label = std::string(table) + "=" + head;
  if (auto src = config.source(table, head)) label += " (" + src->describe() + ")";
  return label;
}

// Values were checked against the registry's choices when configured.
redset::Scheme scheme_from(const std::string& canonical) {
  auto scheme = redset::parse_scheme(canonical);
  return scheme ? *scheme : redset::Scheme::xor_code;
}

GroupDescs build_groups(const Config& config) {
  GroupDescs groups;
  groups.names = {std::string(kNodeGroup), std::string(kWorldGroup)};
  if (const kv::Tree* table = config.table("GROUPS")) {
    for (const auto& [host, entry] : table->children()) {
      auto& values = groups.by_host[host];
      for (const auto& [name, value] : entry->children()) {
        values[name] = entry->value_or(name, "");
        groups.names.insert(name);
      }
    }
  }
  return groups;
}

Status check_group(const GroupDescs& groups, const std::string& label, const std::string& group) {
  if (groups.has(group)) return Status::Ok();
  return invalid(label, "group '" + group + "' is not defined (use NODE, WORLD or a GROUPS name)");
}

Result<std::vector<StoreDesc>> build_stores(const Config& config, const GroupDescs& groups) {
  SCR_ASSIGN_OR_RETURN(std::string cache_base, config.get_string("SCR_CACHE_BASE"));
  SCR_ASSIGN_OR_RETURN(int64_t cache_size, config.get_int("SCR_CACHE_SIZE"));
  std::map<std::string, StoreDesc> by_path;
  by_path[cache_base] = StoreDesc{cache_base, std::string(kNodeGroup), static_cast<int>(cache_size)};
  if (const kv::Tree* table = config.table("STORE")) {
    for (const auto& [path, entry] : table->children()) {
      StoreDesc store{path, entry->value_or("GROUP", kNodeGroup),
                      item_int(*entry, "COUNT", static_cast<int>(cache_size)),
                      item_bool(*entry, "ENABLED", true)};
      std::string label = label_of(config, "STORE", path);
      SCR_TRY(check_group(groups, label, store.group));
      // SCR's stores that SCR++ cannot serve: refused, never half-used.
      if (!item_bool(*entry, "MKDIR", true))
        return invalid(label, "MKDIR=0 is not supported: SCR++ creates its job and dataset directories in a store");
      if (entry->value_or("VIEW", "PRIVATE") != "PRIVATE")
        return invalid(label, "VIEW=GLOBAL is not supported: each group of processes (GROUP) has its own device");
      by_path[path] = std::move(store);
    }
  }
  std::vector<StoreDesc> stores;
  for (auto& [path, store] : by_path) stores.push_back(std::move(store));
  return stores;
}

// The default descriptor, every field of which comes from SCR_* parameters.
Result<RedDesc> default_red(const Config& config) {
  RedDesc red;
  SCR_ASSIGN_OR_RETURN(red.bypass, config.get_bool("SCR_CACHE_BYPASS"));
  SCR_ASSIGN_OR_RETURN(red.store, config.get_string("SCR_CACHE_BASE"));
  SCR_ASSIGN_OR_RETURN(red.group, config.get_string("SCR_GROUP"));
  SCR_ASSIGN_OR_RETURN(std::string type, config.get_string("SCR_COPY_TYPE"));
  red.params.scheme = scheme_from(type);  // FILE: XOR for CKPT lines without TYPE
  SCR_ASSIGN_OR_RETURN(int64_t set_size, config.get_int("SCR_SET_SIZE"));
  SCR_ASSIGN_OR_RETURN(int64_t failures, config.get_int("SCR_SET_FAILURES"));
  SCR_ASSIGN_OR_RETURN(int64_t replicas, config.get_int("SCR_REPLICAS"));
  red.params.set_size = static_cast<int>(set_size);
  red.params.failures = static_cast<int>(failures);
  red.params.replicas = static_cast<int>(replicas);
  return red;
}

RedDesc red_from_entry(const RedDesc& defaults, int index, const kv::Tree& entry) {
  RedDesc red = defaults;
  red.index = index;
  red.enabled = item_bool(entry, "ENABLED", true);
  red.interval = item_int(entry, "INTERVAL", 1);
  red.output = item_bool(entry, "OUTPUT", false);
  red.bypass = item_bool(entry, "BYPASS", defaults.bypass);
  red.store = entry.value_or("STORE", defaults.store);
  red.group = entry.value_or("GROUP", defaults.group);
  if (auto type = entry.value("TYPE")) red.params.scheme = scheme_from(*type);
  red.params.set_size = item_int(entry, "SET_SIZE", defaults.params.set_size);
  red.params.failures = item_int(entry, "SET_FAILURES", defaults.params.failures);
  red.params.replicas = item_int(entry, "REPLICAS", defaults.params.replicas);
  return red;
}

Status check_red(const RedDesc& red, const std::string& label, const Descriptors& d) {
  SCR_TRY(check_group(d.groups, label, red.group));
  if (!d.find_store(red.store))
    return invalid(label, "store '" + red.store +
                              "' is not defined (add a STORE line or use SCR_CACHE_BASE)");
  const redset::Params& p = red.params;
  std::string sizes = " (SET_SIZE=" + std::to_string(p.set_size) + ", SET_FAILURES=" +
                      std::to_string(p.failures) + ", REPLICAS=" + std::to_string(p.replicas) + ")";
  if (p.scheme == redset::Scheme::partner && (p.replicas < 1 || p.replicas >= p.set_size))
    return invalid(label, "PARTNER needs 1 <= REPLICAS < SET_SIZE" + sizes);
  if (p.scheme == redset::Scheme::rs) {
    if (p.failures < 1 || p.failures >= p.set_size)
      return invalid(label, "RS needs 1 <= SET_FAILURES < SET_SIZE" + sizes);
    if (p.set_size + p.failures > kMaxRsMembers)
      return invalid(label, "RS needs SET_SIZE + SET_FAILURES <= " +
                                std::to_string(kMaxRsMembers) + sizes);
  }
  return Status::Ok();
}

}  // namespace

Result<std::string> GroupDescs::member_key(std::string_view host, std::string_view group) const {
  if (group == kNodeGroup) return std::string(host);
  if (group == kWorldGroup) return std::string(kWorldGroup);
  if (!has(group)) return Error(Errc::invalid_argument, "group '" + std::string(group) + "' is not defined");
  auto h = by_host.find(host);
  if (h != by_host.end()) {
    auto v = h->second.find(std::string(group));
    if (v != h->second.end()) return v->second;
  }
  return Error(Errc::not_found, "host '" + std::string(host) + "' has no " + std::string(group) +
                                    " value; add it to a GROUPS=" + std::string(host) + " line");
}

const StoreDesc* Descriptors::find_store(std::string_view path) const {
  for (const auto& s : stores)
    if (s.path == path) return &s;
  return nullptr;
}

Result<Descriptors> build_descriptors(const Config& config) {
  Descriptors d;
  d.groups = build_groups(config);
  SCR_ASSIGN_OR_RETURN(d.stores, build_stores(config, d.groups));
  SCR_ASSIGN_OR_RETURN(RedDesc defaults, default_red(config));

  const kv::Tree* table = config.table("CKPT");
  SCR_ASSIGN_OR_RETURN(std::string copy_type, config.get_string("SCR_COPY_TYPE"));
  if (!table && copy_type == "FILE")
    return Error(Errc::invalid_argument,
                 "SCR_COPY_TYPE=FILE takes the redundancy descriptors from CKPT lines of a config file, "
                 "and none is defined");
  if (!table) {
    std::string label = "default redundancy descriptor (SCR_COPY_TYPE=" +
                        std::string(redset::scheme_name(defaults.params.scheme)) + ", SCR_GROUP=" + defaults.group + ")";
    SCR_TRY(check_red(defaults, label, d));
    const StoreDesc* store = d.find_store(defaults.store);
    if (!store->enabled) return invalid(label, "its store " + store->path + " is disabled (ENABLED=0)");
    defaults.store_count = store->count;
    d.reds.push_back(defaults);
    return d;
  }
  for (int64_t index : table->int_keys()) {
    std::string head = std::to_string(index);
    RedDesc red = red_from_entry(defaults, static_cast<int>(index), *table->get(head));
    SCR_TRY(check_red(red, label_of(config, "CKPT", head), d));
    const StoreDesc* store = d.find_store(red.store);  // check_red found it
    red.store_count = store->count;
    red.enabled = red.enabled && store->enabled;
    d.reds.push_back(std::move(red));
  }
  bool every_dataset_covered = std::any_of(d.reds.begin(), d.reds.end(), [](const RedDesc& r) {
    return r.enabled && r.interval == 1;
  });
  if (!every_dataset_covered)
    return Error(Errc::invalid_argument,
                 "CKPT: no enabled descriptor has INTERVAL=1, so some checkpoints "
                 "would have no redundancy scheme (ENABLED=0 on a descriptor or on its STORE disables it)");
  return d;
}

const RedDesc& select(const std::vector<RedDesc>& reds, int checkpoint_id, DatasetKind kind) {
  assert(!reds.empty());
  if (kind.output) {
    for (const auto& red : reds)
      if (red.enabled && red.output) return red;
  }
  const RedDesc* best = nullptr;
  for (const auto& red : reds) {
    if (!red.enabled) continue;
    if (!kind.checkpoint) {
      if (red.interval == 1) return red;  // not a checkpoint: the first with INTERVAL=1
    } else if (checkpoint_id % red.interval == 0 && (!best || red.interval > best->interval)) {
      best = &red;
    }
  }
  assert(best && "descriptors were not validated by build_descriptors");
  return best ? *best : reds.front();
}

}  // namespace scr::rt
