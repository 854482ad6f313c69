# Writes the man pages from the program's --help with Debian's help2man (cmake -P; the build rule
# is docs/CMakeLists.txt):
#   OUT/corbin.1.gz        `corbin --help`, SEE ALSO naming every subcommand's page
#   OUT/corbin-SUB.1.gz    `corbin SUB --help` for each SUB in SUBCOMMANDS
# Variables: CORBIN (the executable), HELP2MAN, GZIP, OUT, SUBCOMMANDS (comma-separated).
#
# corbin runs as `corbin` from PATH, so that the usage lines read `corbin ...` and not the build
# tree's path. Each page's name and version come from the program: its one-line description (the
# first line of its --help) and `corbin --version`. The NAME line is passed in an include file,
# not with --name: help2man 1.49 writes --name's bytes without decoding them, so a description
# with ε or δ would come out double-encoded; an include file is decoded as the --help text is
# (-L C.UTF-8). The pages are compressed with gzip -n (no name, no time stamp), as Debian ships them.

foreach(var CORBIN HELP2MAN GZIP OUT)
  if(NOT ${var})
    message(FATAL_ERROR "man_pages.cmake: ${var} is not set")
  endif()
endforeach()
get_filename_component(corbin_dir ${CORBIN} DIRECTORY)
set(ENV{PATH} "${corbin_dir}:$ENV{PATH}")
file(MAKE_DIRECTORY ${OUT})

execute_process(COMMAND corbin --version OUTPUT_VARIABLE version RESULT_VARIABLE status
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT status EQUAL 0 OR NOT version MATCHES "^corbin [0-9]")
  message(FATAL_ERROR "man_pages.cmake: `corbin --version` exited ${status}, printing '${version}'")
endif()
string(REGEX REPLACE "^corbin " "" version "${version}")

# help2man with NAME and SEE ALSO from an include file; then gzip.
function(man_page page help_option description see_also)
  set(include ${OUT}/${page}.h2m)
  string(REPLACE "-" "\\-" name "${page} - ${description}")  # roff: "\-" is a minus, as help2man writes it
  file(WRITE ${include} "[NAME]\n${name}\n[SEE ALSO]\n${see_also}\n")
  execute_process(COMMAND ${HELP2MAN} -N -L C.UTF-8 --help-option=${help_option}
                          "--version-string=${page} ${version}" "--source=corbin ${version}"
                          --include=${include} --output=${OUT}/${page}.1 corbin
                  RESULT_VARIABLE status ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "man_pages.cmake: help2man for ${page} exited ${status}: ${error}")
  endif()
  execute_process(COMMAND ${GZIP} -9nf ${OUT}/${page}.1 RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "man_pages.cmake: gzip ${OUT}/${page}.1 exited ${status}")
  endif()
  file(REMOVE ${include})
endfunction()

# The first line of `corbin ARGS --help`: the one-line description.
function(description_of out)
  execute_process(COMMAND corbin ${ARGN} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "man_pages.cmake: `corbin ${ARGN} --help` exited ${status}")
  endif()
  string(REGEX MATCH "^[^\n]*" first "${help}")
  set(${out} "${first}" PARENT_SCOPE)
endfunction()

string(REPLACE "," ";" subcommands "${SUBCOMMANDS}")
set(pages)
foreach(sub ${subcommands})
  description_of(description ${sub})
  man_page(corbin-${sub} "${sub} --help" "${description}" "\\fBcorbin\\fR(1)")
  list(APPEND pages "\\fBcorbin\\-${sub}\\fR(1)")
endforeach()
description_of(description)
string(REGEX REPLACE "^corbin — " "" description "${description}")  # "corbin — what it is"
list(JOIN pages ",\n" see_also)
man_page(corbin --help "${description}" "${see_also}")
