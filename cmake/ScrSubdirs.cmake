# scr_add_subdirectories(): add every subfolder of the current source folder
# that has a CMakeLists.txt, in sorted order. Lets tools/, examples/, bench/
# and tests/ grow by adding a folder, with no shared list to edit.
function(scr_add_subdirectories)
  file(GLOB children LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} *)
  list(SORT children)
  foreach(dir ${children})
    if(IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${dir} AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/CMakeLists.txt)
      add_subdirectory(${dir})
    endif()
  endforeach()
endfunction()
