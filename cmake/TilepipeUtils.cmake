# Helpers shared by every tilepipe target.

# Warnings for our own code only (LLVM/MLIR headers are SYSTEM includes).
set(TILEPIPE_WARNING_FLAGS -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)

# tilepipe_library(name SRCS... [DEPS targets...] [LINK libs...])
function(tilepipe_library name)
  cmake_parse_arguments(ARG "" "" "SRCS;DEPS;LINK" ${ARGN})
  add_library(${name} STATIC ${ARG_SRCS})
  target_compile_options(${name} PRIVATE ${TILEPIPE_WARNING_FLAGS})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(ARG_DEPS)
    add_dependencies(${name} ${ARG_DEPS})
  endif()
  target_link_libraries(${name} PUBLIC ${ARG_LINK} ${TILEPIPE_MLIR_LIBS} ${TILEPIPE_LLVM_LIBS})
endfunction()

# tilepipe_tool(name SRCS... [LINK libs...]): a thin main over libcommon.
function(tilepipe_tool name)
  cmake_parse_arguments(ARG "" "" "SRCS;LINK" ${ARGN})
  add_executable(${name} ${ARG_SRCS})
  target_compile_options(${name} PRIVATE ${TILEPIPE_WARNING_FLAGS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK} TilepipeSupport)
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()
