#include "tools/scr_index/command.hpp"

namespace scr::tools::index_cmd {

std::span<const Command> commands() {
  static const Command table[] = {
      {"", "", "list the datasets (the default)", true, list_datasets},
      {"--current", "NAME", "restart from NAME (a complete, flushed, not failed checkpoint)", false,
       set_current},
      {"--drop", "NAME", "remove NAME from the index; its files stay", false, drop_dataset},
      {"--drop-after", "NAME", "remove every dataset newer than NAME from the index", false,
       drop_after},
      {"--add", "NAME", "adopt the dataset NAME whose directory is in .scr but not in the index",
       false, add_dataset},
      {"--build", "ID|NAME",
       "check a flushed dataset's files; rebuild missing or damaged ones from its redundancy files",
       false, build_dataset},
  };
  return table;
}

}  // namespace scr::tools::index_cmd
