#include "runtime/cache/file_transfer.hpp"

#include <cstring>

#include "io/files.hpp"
#include "io/path.hpp"
#include "kvtree/codec.hpp"
#include "mpi/tags.hpp"
#include "redset/meta.hpp"

namespace scr::rt {
namespace {

// Both transfers run even if the first fails, so the peer is never left waiting.
Result<std::string> swap_bytes(const mpi::Comm& comm, const std::string& out, int dest, int src) {
  long long out_len = static_cast<long long>(out.size()), in_len = 0;
  Status lengths = mpi::sendrecv(comm, &out_len, int{sizeof out_len}, dest, &in_len,
                                 int{sizeof in_len}, src, mpi::tags::kFileHeaderLength);
  std::string in(src == mpi::kNoPeer ? 0 : static_cast<size_t>(in_len), '\0');
  Status bytes = mpi::sendrecv(comm, out.data(), static_cast<int>(out.size()), dest, in.data(),
                               static_cast<int>(in.size()), src, mpi::tags::kFileHeader);
  if (!lengths.ok()) return lengths;
  if (!bytes.ok()) return bytes;
  return in;
}

// The order and size of pieces both sides derive from the file sizes.
struct Piece {
  size_t file;
  uint64_t offset;
  size_t len;
};

std::vector<Piece> plan(const std::vector<uint64_t>& sizes, size_t piece) {
  std::vector<Piece> out;
  for (size_t f = 0; f < sizes.size(); ++f)
    for (uint64_t off = 0; off < sizes[f]; off += piece)
      out.push_back({f, off, static_cast<size_t>(std::min<uint64_t>(piece, sizes[f] - off))});
  return out;
}

}  // namespace

Status swap_files(io::Env& env, const mpi::Comm& comm, int dest, const FileBundle& out, int src,
                  FileBundle* in, size_t piece_size) {
  Status failed;
  auto note = [&](const Status& st) {
    if (failed.ok() && !st.ok()) failed = st;
  };

  // Headers: names, metadata and sizes first.
  kv::Tree header;
  std::vector<uint64_t> out_sizes;
  std::vector<std::unique_ptr<io::File>> readers;
  if (dest != mpi::kNoPeer) {
    auto described = redset::describe_files(env, out.dir, out.names);
    note(described.status());
    header.put("EXTRA", out.extra);
    // With a file missing, send an empty bundle: the receiver's plan must
    // match ours exactly.
    if (described) header.put("FILES", *described);
    for (const auto& name : described ? out.names : std::vector<std::string>{}) {
      auto f = env.open(io::path::join(out.dir, name), io::OpenMode::read);
      note(f.status());
      auto info = env.stat(io::path::join(out.dir, name));
      out_sizes.push_back(info ? info->size : 0);
      readers.push_back(f ? std::move(f).value() : nullptr);
    }
  }
  auto swapped = swap_bytes(comm, dest == mpi::kNoPeer ? "" : kv::encode(header), dest, src);
  note(swapped.status());
  std::string in_bytes = swapped ? std::move(swapped).value() : std::string();

  std::vector<redset::FileEntry> in_files;
  std::vector<std::unique_ptr<io::File>> writers;
  if (src != mpi::kNoPeer) {
    auto tree = kv::decode(in_bytes);
    note(tree.status());
    if (tree) {
      in->extra = tree->get("EXTRA") ? *tree->get("EXTRA") : kv::Tree();
      auto files = tree->get("FILES") ? redset::files_from_tree(*tree->get("FILES"))
                                      : Result<std::vector<redset::FileEntry>>(std::vector<redset::FileEntry>{});
      note(files.status());
      if (files) in_files = *files;
    }
    for (const auto& f : in_files) {
      std::string p = io::path::join(in->dir, f.name);
      Status st = io::make_dirs(env, io::path::dirname(p), 0700);
      auto w = st.ok() ? env.open(p, io::OpenMode::create, 0600) : Result<std::unique_ptr<io::File>>(st);
      note(w.status());
      writers.push_back(w ? std::move(w).value() : nullptr);
      in->names.push_back(f.name);
    }
  }
  std::vector<uint64_t> in_sizes;
  for (const auto& f : in_files) in_sizes.push_back(f.meta.size);

  // Stream: one piece each way per step until both sides are done.
  auto out_plan = plan(out_sizes, piece_size);
  auto in_plan = plan(in_sizes, piece_size);
  std::vector<char> obuf(piece_size), ibuf(piece_size);
  long long steps_mine = static_cast<long long>(std::max(out_plan.size(), in_plan.size()));
  for (long long i = 0; i < steps_mine; ++i) {
    size_t ui = static_cast<size_t>(i);
    bool sending = ui < out_plan.size(), receiving = ui < in_plan.size();
    if (sending) {
      const Piece& p = out_plan[ui];
      Status st = readers[p.file] ? readers[p.file]->pread_exact(obuf.data(), p.len, p.offset)
                                  : Status(Errc::io_error, "file not open");
      if (!st.ok()) {
        note(st);
        std::memset(obuf.data(), 0, p.len);  // keep the peer's protocol going
      }
    }
    note(mpi::sendrecv(comm, obuf.data(), sending ? static_cast<int>(out_plan[ui].len) : 0,
                       sending ? dest : mpi::kNoPeer, ibuf.data(),
                       receiving ? static_cast<int>(in_plan[ui].len) : 0,
                       receiving ? src : mpi::kNoPeer, mpi::tags::kFilePiece));
    if (receiving) {
      const Piece& p = in_plan[ui];
      if (writers[p.file]) note(writers[p.file]->pwrite(ibuf.data(), p.len, p.offset));
    }
  }
  for (auto& w : writers)
    if (w) {
      note(w->sync());
      note(w->close());
    }
  if (failed.ok() && src != mpi::kNoPeer) note(redset::restore_meta(env, in->dir, in_files));
  return failed;
}

}  // namespace scr::rt
