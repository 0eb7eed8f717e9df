! Free-form program using the Fortran 2008 module (USE SCR), which checks
! every argument; the job itself is ckpt_body.inc.
program ckpt_module
  use mpi
  use scr
  implicit none
  include 'ckpt_body.inc'
end program ckpt_module
