// SCR++ memory regions in C++ (C++20): protect spans of memory under ids,
// checkpoint them all, restore them at restart; SCR++ does the files (see
// scr/scr_ext.h, SCRPP_Protect, for what is checked and when).
//
//   scr::Library scr;
//   scr::Regions regions;                 // unprotects its ids when destroyed
//   regions.protect(0, std::span(&step, 1));
//   regions.protect(1, std::span(grid));  // a std::vector<double>
//   if (auto name = regions.restore()) ...;   // restored from *name
//   regions.checkpoint("step.10");
//
// At another job size, inside a scr::Restart, any writer's region can be
// read: regions.stored(restart, writer, id) and
// regions.restore_from(restart, writer, id, span). Errors throw
// scr::Exception as the rest of the C++ API does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>

#include "scr/scr.hpp"

namespace scr {

// What a checkpoint holds under one id.
struct StoredRegion {
  std::uint64_t count = 0;
  std::uint64_t elem_size = 0;
  std::string type;
};

class Regions {
 public:
  Regions() = default;
  ~Regions();  // unprotects every id protected through this object; never throws
  Regions(const Regions&) = delete;
  Regions& operator=(const Regions&) = delete;

  // Protect (or re-protect) `data` under `id`; its memory must outlive the
  // protection. The element size is sizeof(T).
  template <class T, std::size_t N>
  void protect(int id, std::span<T, N> data, const std::string& type = "") {
    protect_bytes(id, data.data(), data.size(), sizeof(T), type);
  }
  void unprotect(int id);

  // Collective: one checkpoint holding every protected region (every
  // process's, including regions protected outside this object).
  void checkpoint(const std::string& name = "");
  // Inside an open Output phase: add this process's regions to it. Once
  // per phase: a second call throws (bad_state) and changes nothing.
  void write(Output& output);
  // Collective: restart from the checkpoint offered, if any; its name.
  std::optional<std::string> restore();
  // Inside an open Restart phase (collective): read every region back.
  void read(Restart& restart);
  // Inside an open Restart phase (local): any writer's region.
  StoredRegion stored(Restart& restart, int writer, int id) const;
  template <class T, std::size_t N>
  void restore_from(Restart& restart, int writer, int id, std::span<T, N> into) const {
    restore_bytes_from(restart, writer, id, into.data(), into.size(), sizeof(T));
  }

 private:
  void protect_bytes(int id, void* ptr, std::size_t count, std::size_t elem_size, const std::string& type);
  void restore_bytes_from(Restart& restart, int writer, int id, void* ptr, std::size_t count,
                          std::size_t elem_size) const;
  std::set<int> ids_;
};

}  // namespace scr
