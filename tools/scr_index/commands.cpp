#include "tools/scr_index/command.hpp"

namespace scr::tools::index_cmd {

std::span<const Command> commands() {
  static const Command table[] = {
      {"--list", "", "list the datasets (the default)", true, list_datasets, "-l"},
      {"--current", "NAME", "restart from NAME (a complete, flushed, not failed checkpoint)", false,
       set_current, "-c"},
      {"--drop", "NAME", "remove NAME from the index; its files stay", false, drop_dataset, "-d"},
      {"--remove", "NAME", "SCR's name for --drop", false, drop_dataset, "-r"},
      {"--drop-after", "NAME", "remove every dataset newer than NAME from the index", false,
       drop_after},
      {"--add", "NAME|ID", "adopt the dataset NAME (or with dataset id ID, as SCR takes it) whose "
       "directory is in .scr but not in the index",
       false, add_dataset, "-a"},
      {"--build", "ID|NAME",
       "check a dataset's files, rebuild missing or damaged ones from its redundancy files, "
       "and add it to the index if it is not there",
       false, build_dataset, "-b"},
  };
  return table;
}

}  // namespace scr::tools::index_cmd
