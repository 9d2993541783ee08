# The interface's language at start (docs/i18n/TRANSLATING.md, Choosing the language): normlab
# under Xvfb with the environment ENV (a|b, e.g. LANG=ko_KR.UTF-8) and ARGS, its texts of the
# last frame (--text-log) must contain EXPECT and not UNEXPECTED; with STDERR, stderr must contain it.
#   cmake -DAPP=<normlab> -DXVFB=<xvfb-run> -DOUT=<file> [-DENV=a|b] [-DARGS=a|b] -DEXPECT=<text>
#         [-DUNEXPECTED=<text>] [-DSTDERR=<text>] -P lang_text.cmake
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" env "${ENV}")
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE ${OUT})
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=LC_ALL --unset=LC_MESSAGES --unset=LANG ${env}
                        ${XVFB} -a -s "-screen 0 1280x720x24" ${APP} --frames 6 --text-log ${OUT} ${args}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0 OR NOT EXISTS ${OUT})
  message(FATAL_ERROR "exit ${code}\n${out}${err}")
endif()
file(READ ${OUT} texts)
if(NOT texts MATCHES "${EXPECT}")
  message(FATAL_ERROR "the texts do not contain \"${EXPECT}\":\n${texts}")
endif()
if(UNEXPECTED AND texts MATCHES "${UNEXPECTED}")
  message(FATAL_ERROR "the texts contain \"${UNEXPECTED}\":\n${texts}")
endif()
if(STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr does not say \"${STDERR}\":\n${err}")
endif()
