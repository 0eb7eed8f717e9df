# Sourced by the runtime benchmark scripts: the build directory as an
# absolute path (the jobs run in other directories), how many repeats, and
# Open MPI's settings for jobs of simulated nodes run as root on few cores.
# $1 of the sourcing script: the build directory (default ./build).
build="$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/../../build}" && pwd)"
repeat="${REPEAT:-3}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_btl=self,vader
# The build exports these for ctest; the library would warn about them.
unset SCR_BUILD_DIR SCR_SOURCE_DIR
