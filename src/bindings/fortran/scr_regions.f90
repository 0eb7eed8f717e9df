! Memory regions protected without files, for Fortran 2008: the SCRPP_Protect
! family of scr/scr_ext.h over assumed-shape arrays, so a program never
! takes an address itself. Module `scr` re-exports every public name here:
! programs write USE SCR.
!
!   real(real64), allocatable :: grid(:,:)
!   call scrpp_protect(1, grid, ierror)        ! real64/real32/int32/int64, rank 1 to 3
!   call scrpp_restore(restored, name, ierror) ! restored: LOGICAL
!   call scrpp_checkpoint('step.10', ierror)
!
! A protected array must stay where it is (a module or SAVEd variable, or an
! allocatable not reallocated) and be contiguous: a strided section is
! refused (IERROR /= SCR_SUCCESS), since it cannot be written in place.
! At another job size, inside a restart phase, SCRPP_REGION_INFO and
! SCRPP_RESTORE_FROM (rank-1 arrays) read any writer's regions.
module scr_regions
  use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t, c_ptr, c_loc, c_null_char, &
                                         c_long_long
  use, intrinsic :: iso_fortran_env, only: real32, real64, int32, int64, error_unit
  implicit none
  private

  public :: scrpp_protect, scrpp_unprotect, scrpp_checkpoint, scrpp_write_regions
  public :: scrpp_restore, scrpp_read_regions, scrpp_region_info, scrpp_restore_from

  integer, parameter :: name_max = 1024  ! SCR_MAX_FILENAME

  interface scrpp_protect
    procedure protect_r64_1, protect_r64_2, protect_r64_3, protect_r32_1, protect_r32_2, protect_r32_3
    procedure protect_i32_1, protect_i32_2, protect_i32_3, protect_i64_1, protect_i64_2, protect_i64_3
  end interface
  interface scrpp_restore_from
    procedure restore_from_r64, restore_from_r32, restore_from_i32, restore_from_i64
  end interface

  interface
    function c_protect(id, ptr, count, elem_size) bind(C, name="SCRPP_Protect") result(rc)
      import :: c_int, c_ptr, c_size_t
      integer(c_int), value :: id
      type(c_ptr), value :: ptr
      integer(c_size_t), value :: count, elem_size
      integer(c_int) :: rc
    end function
    function c_unprotect(id) bind(C, name="SCRPP_Unprotect") result(rc)
      import :: c_int
      integer(c_int), value :: id
      integer(c_int) :: rc
    end function
    function c_checkpoint(name) bind(C, name="SCRPP_Checkpoint") result(rc)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int) :: rc
    end function
    function c_write_regions() bind(C, name="SCRPP_Write_regions") result(rc)
      import :: c_int
      integer(c_int) :: rc
    end function
    function c_restore(restored, name) bind(C, name="SCRPP_Restore") result(rc)
      import :: c_int, c_char
      integer(c_int), intent(out) :: restored
      character(kind=c_char), intent(out) :: name(*)
      integer(c_int) :: rc
    end function
    function c_read_regions() bind(C, name="SCRPP_Read_regions") result(rc)
      import :: c_int
      integer(c_int) :: rc
    end function
    function c_region_info(writer, id, count, elem_size, type) bind(C, name="SCRPP_Region_info") result(rc)
      import :: c_int, c_long_long, c_char
      integer(c_int), value :: writer, id
      integer(c_long_long), intent(out) :: count, elem_size
      character(kind=c_char), intent(out) :: type(*)
      integer(c_int) :: rc
    end function
    function c_restore_from(writer, id, ptr, count, elem_size) bind(C, name="SCRPP_Restore_from") result(rc)
      import :: c_int, c_ptr, c_size_t
      integer(c_int), value :: writer, id
      type(c_ptr), value :: ptr
      integer(c_size_t), value :: count, elem_size
      integer(c_int) :: rc
    end function
  end interface

contains

  ! Every specific procedure ends here: the array's address, element count
  ! and element size (in bytes), once it is known to be contiguous.
  subroutine protect_address(id, contiguous, ptr, count, bits, ierror)
    integer, intent(in) :: id
    logical, intent(in) :: contiguous
    type(c_ptr), intent(in) :: ptr
    integer(c_size_t), intent(in) :: count
    integer, intent(in) :: bits
    integer, intent(out) :: ierror
    if (.not. contiguous) then
      ! No C call sees this array, so the cause is printed here, as the
      ! library prints its own.
      write (error_unit, '(a,i0,a)') 'SCR++ ERROR: scrpp_protect: region ', id, &
        ': the array is not contiguous (a strided section cannot be read back in place)'
      ierror = 1
      return
    end if
    ierror = c_protect(id, ptr, count, int(bits / 8, c_size_t))
  end subroutine

  subroutine protect_r64_1(id, a, ierror)
    integer, intent(in) :: id
    real(real64), intent(inout), target :: a(:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_r64_2(id, a, ierror)
    integer, intent(in) :: id
    real(real64), intent(inout), target :: a(:,:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_r64_3(id, a, ierror)
    integer, intent(in) :: id
    real(real64), intent(inout), target :: a(:,:,:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_r32_1(id, a, ierror)
    integer, intent(in) :: id
    real(real32), intent(inout), target :: a(:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_r32_2(id, a, ierror)
    integer, intent(in) :: id
    real(real32), intent(inout), target :: a(:,:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_r32_3(id, a, ierror)
    integer, intent(in) :: id
    real(real32), intent(inout), target :: a(:,:,:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_i32_1(id, a, ierror)
    integer, intent(in) :: id
    integer(int32), intent(inout), target :: a(:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_i32_2(id, a, ierror)
    integer, intent(in) :: id
    integer(int32), intent(inout), target :: a(:,:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_i32_3(id, a, ierror)
    integer, intent(in) :: id
    integer(int32), intent(inout), target :: a(:,:,:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_i64_1(id, a, ierror)
    integer, intent(in) :: id
    integer(int64), intent(inout), target :: a(:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_i64_2(id, a, ierror)
    integer, intent(in) :: id
    integer(int64), intent(inout), target :: a(:,:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine
  subroutine protect_i64_3(id, a, ierror)
    integer, intent(in) :: id
    integer(int64), intent(inout), target :: a(:,:,:)
    integer, intent(out) :: ierror
    call protect_address(id, is_contiguous(a), c_loc(a), size(a, kind=c_size_t), storage_size(a), ierror)
  end subroutine

  subroutine scrpp_unprotect(id, ierror)
    integer, intent(in) :: id
    integer, intent(out) :: ierror
    ierror = c_unprotect(id)
  end subroutine

  ! NAME: the dataset's name (trailing blanks dropped; blank: SCR++ names it).
  subroutine scrpp_checkpoint(name, ierror)
    character(len=*), intent(in) :: name
    integer, intent(out) :: ierror
    ierror = c_checkpoint(trim(name) // c_null_char)
  end subroutine

  ! Inside an open output phase: once per phase (a second call sets IERROR
  ! and changes nothing).
  subroutine scrpp_write_regions(ierror)
    integer, intent(out) :: ierror
    ierror = c_write_regions()
  end subroutine

  ! RESTORED: whether a checkpoint's regions were read back; NAME gets its
  ! name, blank-padded (IERROR is set when NAME is too short for it).
  subroutine scrpp_restore(restored, name, ierror)
    logical, intent(out) :: restored
    character(len=*), intent(out) :: name
    integer, intent(out) :: ierror
    character(kind=c_char) :: buf(name_max)
    integer(c_int) :: flag
    ierror = c_restore(flag, buf)
    restored = flag /= 0
    call from_c_string(buf, name, ierror)
  end subroutine

  subroutine scrpp_read_regions(ierror)
    integer, intent(out) :: ierror
    ierror = c_read_regions()
  end subroutine

  ! What writer WRITER stored under ID: COUNT elements of ELEM_SIZE bytes.
  subroutine scrpp_region_info(writer, id, count, elem_size, ierror)
    integer, intent(in) :: writer, id
    integer(int64), intent(out) :: count, elem_size
    integer, intent(out) :: ierror
    character(kind=c_char) :: type(name_max)
    integer(c_long_long) :: c_count, c_elem
    ierror = c_region_info(writer, id, c_count, c_elem, type)
    count = c_count
    elem_size = c_elem
  end subroutine

  subroutine restore_from_r64(writer, id, a, ierror)
    integer, intent(in) :: writer, id
    real(real64), intent(inout), target, contiguous :: a(:)
    integer, intent(out) :: ierror
    ierror = c_restore_from(writer, id, c_loc(a), size(a, kind=c_size_t), int(storage_size(a) / 8, c_size_t))
  end subroutine
  subroutine restore_from_r32(writer, id, a, ierror)
    integer, intent(in) :: writer, id
    real(real32), intent(inout), target, contiguous :: a(:)
    integer, intent(out) :: ierror
    ierror = c_restore_from(writer, id, c_loc(a), size(a, kind=c_size_t), int(storage_size(a) / 8, c_size_t))
  end subroutine
  subroutine restore_from_i32(writer, id, a, ierror)
    integer, intent(in) :: writer, id
    integer(int32), intent(inout), target, contiguous :: a(:)
    integer, intent(out) :: ierror
    ierror = c_restore_from(writer, id, c_loc(a), size(a, kind=c_size_t), int(storage_size(a) / 8, c_size_t))
  end subroutine
  subroutine restore_from_i64(writer, id, a, ierror)
    integer, intent(in) :: writer, id
    integer(int64), intent(inout), target, contiguous :: a(:)
    integer, intent(out) :: ierror
    ierror = c_restore_from(writer, id, c_loc(a), size(a, kind=c_size_t), int(storage_size(a) / 8, c_size_t))
  end subroutine

  ! A NUL-terminated C string into a blank-padded Fortran one; too long
  ! sets ierror (when it was 0) and leaves name blank.
  subroutine from_c_string(buf, name, ierror)
    character(kind=c_char), intent(in) :: buf(:)
    character(len=*), intent(out) :: name
    integer, intent(inout) :: ierror
    integer :: i
    name = ' '
    do i = 1, size(buf)
      if (buf(i) == c_null_char) exit
      if (i > len(name)) then
        name = ' '
        if (ierror == 0) ierror = 1
        return
      end if
      name(i:i) = buf(i)
    end do
  end subroutine

end module scr_regions
