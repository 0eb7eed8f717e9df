! Free-form program using SCR's Fortran 77 interface (INCLUDE 'scrf.h');
! the job itself is ckpt_body.inc.
program ckpt_include
  implicit none
  include 'mpif.h'
  include 'scrf.h'
  include 'ckpt_body.inc'
end program ckpt_include
