// Errors as values inside SCR++: every fallible internal function returns a
// Status or a Result<T>. The C and C++ API layers convert them at the boundary
// (src/api), nowhere else.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace scr {

enum class Errc {
  ok = 0,
  invalid_argument,  // bad config value, bad name, bad parameter
  not_found,         // missing file / key / dataset
  io_error,          // read/write/fsync failures other than ENOSPC
  no_space,          // ENOSPC / cache full
  corrupt,           // bad magic, CRC mismatch, truncated or altered data
  bad_state,         // API call in the wrong phase
  mpi_error,         // an MPI call failed or peers disagreed
  unsupported,       // a feature that is recognised but not available
  unrecoverable,     // redundancy cannot rebuild the loss
  permission,        // ownership / mode / symlink problems
};

const char* errc_name(Errc code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Errc code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }

  bool ok() const { return code_ == Errc::ok; }
  Errc code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefix the message with where it happened ("flush dataset 3: ...").
  Status& context(const std::string& where) {
    if (!ok()) message_ = where + ": " + message_;
    return *this;
  }
  Status with_context(const std::string& where) const {
    Status s = *this;
    s.context(where);
    return s;
  }
  std::string to_string() const;

 private:
  Errc code_ = Errc::ok;
  std::string message_;
};

inline Status Error(Errc code, std::string message) { return Status(code, std::move(message)); }

// Result<T>: either a value or a non-ok Status (a small std::expected).
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}              // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {        // NOLINT: implicit by design
    assert(!std::get<Status>(v_).ok() && "Result built from an ok Status");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }

  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace scr

#define SCR_CONCAT_INNER(a, b) a##b
#define SCR_CONCAT(a, b) SCR_CONCAT_INNER(a, b)

// Return the Status from the enclosing function if expr failed.
#define SCR_TRY(expr)                          \
  do {                                         \
    ::scr::Status scr_try_status_ = (expr);    \
    if (!scr_try_status_.ok()) return scr_try_status_; \
  } while (0)

// SCR_ASSIGN_OR_RETURN(auto x, f()); -- unwraps a Result or returns its Status.
#define SCR_ASSIGN_OR_RETURN(lhs, expr)                                  \
  auto SCR_CONCAT(scr_res_, __LINE__) = (expr);                          \
  if (!SCR_CONCAT(scr_res_, __LINE__).ok())                              \
    return SCR_CONCAT(scr_res_, __LINE__).status();                      \
  lhs = std::move(SCR_CONCAT(scr_res_, __LINE__)).value()
