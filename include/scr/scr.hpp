// SCR++ C++ API: the same runtime as scr.h, with RAII phases and exceptions.
//
//   scr::Library scr;                       // SCR_Init ... SCR_Finalize
//   if (auto name = scr.restart_name()) {
//     scr::Restart r(scr);                  // SCR_Start_restart
//     read(r.route("ckpt/rank_0.dat"));
//     r.commit(true);                       // SCR_Complete_restart
//   }
//   if (scr.need_checkpoint()) {
//     scr::Checkpoint c(scr);               // SCR_Start_checkpoint
//     write(c.route("ckpt/rank_0.dat"));
//     c.commit(true);                       // SCR_Complete_checkpoint
//   }
//
// Errors are thrown as scr::Exception carrying the cause and its kind. A
// phase object that goes out of scope without commit() completes its phase
// as invalid (collectively, as commit(false) would). One destroyed by an
// exception enters no collective, since the other processes may never reach
// it: SCR++ stops on this process (every later call throws bad_state, the
// Library's destructor or finalize() ends the session here without a
// collective), so the application can end the job with MPI_Abort instead of
// hanging; the next run discards the dataset left open. To discard a dataset
// on one process and go on, catch inside the phase and commit(false).
// Destructors never throw, and do nothing once SCR is finalized. All calls
// are collective over MPI_COMM_WORLD (or the communicator the Library was
// made on) except route() and version().
#pragma once

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace scr {

// What kind of failure an Exception reports, so a program can act on it
// without parsing the message (retry later on no_space, give up on corrupt).
enum class ErrorKind {
  other,
  invalid_argument,  // a bad name, flag, configuration value or parameter
  not_found,         // a missing file or dataset
  io_error,          // reading or writing failed (other than a full disk)
  no_space,          // cache or prefix full
  corrupt,           // data or metadata fail their checks
  bad_state,         // a call in the wrong phase, or after finalize()
  communication,     // a message between processes failed
  unsupported,       // recognised but not available here
  unrecoverable,     // redundancy cannot rebuild what was lost
  permission,        // ownership, mode or a link where none may be
};

class Exception : public std::runtime_error {
 public:
  explicit Exception(const std::string& what, ErrorKind kind = ErrorKind::other)
      : std::runtime_error(what), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

enum class Flags : int { checkpoint = 1, output = 2, checkpoint_and_output = 3 };

class Library {
 public:
  // Set configuration before construction (SCR_Config "KEY=VALUE").
  static void config(const std::string& key_value);
  static std::optional<std::string> query(const std::string& key);
  static std::string version();

  Library();   // SCR_Init
  // SCRPP_Init_comm (scr/scr_ext.h): SCR++ over the processes of `comm`
  // only; every call below is then collective over `comm`.
  explicit Library(MPI_Comm comm);
  // SCR_Finalize if finalize() was not called; destroyed by an exception,
  // the session ends on this process without a collective. Never throws.
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  void finalize();

  // Name of the checkpoint available for restart, if any.
  std::optional<std::string> restart_name();
  bool need_checkpoint();
  bool should_exit();
  void set_current(const std::string& name);
  void drop(const std::string& name);
  void remove(const std::string& name);

 private:
  bool finalized_ = false;
  int unwinding_ = std::uncaught_exceptions();  // at construction
};

class Output {
 public:
  Output(Library& lib, const std::string& name, Flags flags);
  ~Output();
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  // Where to write `file`; registers it with the dataset.
  std::filesystem::path route(const std::filesystem::path& file);
  // Complete the dataset; throws if any process said invalid.
  void commit(bool valid = true);

 protected:
  explicit Output(Library& lib);  // checkpoint with a generated name

 private:
  bool open_ = true;
  int unwinding_ = std::uncaught_exceptions();  // at construction
};

class Checkpoint : public Output {
 public:
  explicit Checkpoint(Library& lib) : Output(lib) {}
};

// One file of a checkpoint (SCR++ extension, see scr/scr_ext.h): its name
// relative to SCR_PREFIX, the rank that wrote it, its size in bytes.
struct RestartFile {
  std::string name;
  int rank = 0;
  std::uint64_t size = 0;
};

class Restart {
 public:
  explicit Restart(Library& lib);
  ~Restart();
  Restart(const Restart&) = delete;
  Restart& operator=(const Restart&) = delete;

  const std::string& name() const { return name_; }
  // Path of `file` of this checkpoint; throws if it is not part of it.
  // Any file of files() may be routed, whatever this process's rank; at
  // another job size each is fetched and checked once per node.
  std::filesystem::path route(const std::filesystem::path& file);
  // SCR++ extensions (local calls): how many processes wrote the
  // checkpoint, and all its files in the order of the rank that wrote them.
  int ranks() const;
  std::vector<RestartFile> files() const;
  // Throws if any process said invalid (the next older checkpoint is then
  // offered by Library::restart_name()).
  void commit(bool valid = true);

 private:
  std::string name_;
  bool open_ = true;
  int unwinding_ = std::uncaught_exceptions();  // at construction
};

}  // namespace scr
