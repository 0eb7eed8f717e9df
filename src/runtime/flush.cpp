#include "runtime/flush.hpp"

#include "common/log.hpp"
#include "common/strings.hpp"
#include "io/files.hpp"
#include "io/path.hpp"
#include "runtime/prefix_index.hpp"
#include "runtime/prefix_window.hpp"

namespace scr::rt {
namespace {

// Rank 0 updates the index; everyone learns whether it worked.
template <class F>
Status update_index(Context& ctx, F&& change) {
  Status st;
  if (ctx.rank() == 0) {
    auto idx = PrefixIndex::load(ctx.fs(), ctx.settings.prefix);
    if (!idx) st = idx.status();
    else {
      change(*idx);
      st = idx->save(ctx.fs());
    }
  }
  return mpi::agree(ctx.world, st);
}

// Copy this process's files of dataset id; returns {FILE/<rel>/{SIZE,CRC},
// REDFILE/<name>/{SIZE}}.
Result<kv::Tree> copy_out(Context& ctx, int id) {
  kv::Tree mine;
  std::string dir = ctx.dataset_dir(id);
  io::CopyOptions opt;
  opt.piece_size = ctx.settings.piece_size;
  for (const auto& rel : ctx.filemap.files(id)) {
    std::string dst = io::path::join(ctx.settings.prefix, rel);
    SCR_TRY(io::make_dirs(ctx.fs(), io::path::dirname(dst), 0755));
    uint32_t crc = 0;
    opt.crc32c = ctx.settings.crc_on_flush ? &crc : nullptr;
    SCR_ASSIGN_OR_RETURN(uint64_t bytes, io::copy_file(ctx.fs(), io::path::join(dir, rel), dst, opt));
    kv::Tree& f = mine.child("FILE").child(rel);
    f.set_uint("SIZE", bytes);
    if (ctx.settings.crc_on_flush) f.set_uint("CRC", crc);
  }
  std::string meta_dir = prefix_dataset_dir(ctx.settings.prefix, id);
  opt.crc32c = nullptr;
  for (const auto& name : ctx.filemap.redundancy_files(id)) {
    SCR_ASSIGN_OR_RETURN(uint64_t bytes, io::copy_file(ctx.fs(), io::path::join(dir, name),
                                                       io::path::join(meta_dir, name), opt));
    mine.child("REDFILE").child(name).set_uint("SIZE", bytes);
  }
  return mine;
}

}  // namespace

bool flush_due(const Context& ctx, const DatasetInfo& info) {
  if (info.is_output()) return true;
  return ctx.settings.flush > 0 && info.ckpt > 0 && info.ckpt % ctx.settings.flush == 0;
}

Status flush_dataset(Context& ctx, int id) {
  const kv::Tree* entry = ctx.filemap.find(id);
  kv::Tree desc = entry && entry->get("DESC") ? *entry->get("DESC") : kv::Tree();
  DatasetInfo info = DatasetInfo::from_tree(desc);
  double t0 = wall_seconds();

  SCR_TRY(update_index(ctx, [&](PrefixIndex& idx) {
    kv::Tree& e = idx.upsert(desc);
    e.erase("COMPLETE");
    e.erase("FLUSHED");
  }));
  Status st = io::make_dirs(ctx.fs(), prefix_dataset_dir(ctx.settings.prefix, id), 0700);
  Result<kv::Tree> mine = st.ok() ? copy_out(ctx, id) : Result<kv::Tree>(st);
  SCR_TRY(mpi::agree(ctx.world, mine.status()).with_context("flush of dataset " + info.name));

  // Gather every process's file list at rank 0 for the summary.
  int64_t my_bytes = 0;
  if (const kv::Tree* files = mine->get("FILE"))
    for (const auto& [rel, f] : files->children()) my_bytes += f->int_or("SIZE", 0);
  int64_t bytes = mpi::sum(ctx.world, my_bytes);
  std::map<int, kv::Tree> send;
  send[0] = std::move(mine).value();
  auto lists = mpi::exchange_trees(ctx.world, send);
  SCR_TRY(update_index(ctx, [&](PrefixIndex& idx) {
    kv::Tree summary;
    summary.put("DSET", desc);
    summary.set_int("RANKS", ctx.ranks());
    for (auto& [r, t] : lists) summary.child("RANK").put(std::to_string(r), std::move(t));
    Status written = io::write_tree(ctx.fs(), summary_path(ctx.settings.prefix, id), summary);
    if (!written.ok()) {
      log::error(written.message());
      return;  // the index keeps the dataset incomplete
    }
    kv::Tree& e = idx.upsert(desc);
    e.set_int("SIZE", bytes);
    e.set_int("COMPLETE", 1);
    e.set_int("FLUSHED", 1);
    if (info.is_checkpoint()) idx.set_current(info.name);
    apply_prefix_window(ctx, idx);
  }));
  // The summary write may have failed on rank 0 only: check the index.
  bool ok = true;
  if (ctx.rank() == 0) {
    auto idx = PrefixIndex::load(ctx.fs(), ctx.settings.prefix);
    ok = idx && idx->flag(id, "FLUSHED");
  }
  if (!mpi::all_true(ctx.world, ok))
    return Error(Errc::io_error, "flush of dataset " + info.name + " did not complete");
  ctx.filemap.set_flag(id, "FLUSHED", true);
  SCR_TRY(ctx.filemap.save(ctx.fs()));
  if (ctx.rank() == 0)
    log::info("flushed dataset " + info.name + " (" + str::format_bytes(static_cast<uint64_t>(bytes)) +
              ") in " + std::to_string(wall_seconds() - t0) + " s");
  return Status::Ok();
}

}  // namespace scr::rt
