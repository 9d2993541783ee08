# normlab_i18n_check on fixture/ (a source marking 4 texts, catalogs with one of each fault)
# exits 1 and names every fault; the text in a comment is not marked.
execute_process(COMMAND ${CHECK} ${DIR}/i18n ${DIR}/src RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "expected exit 1, got ${rc}:\n${out}${err}")
endif()
foreach(expected
    "ko.po: no entry for \"Missing in Korean\" \\(src/marked.cpp\\)"
    "ko.po: stale entry \"Old text\" \\(no source marks it\\)"
    "zh_CN.po:[0-9]+: msgstr for \"Rows: {0}\": placeholders {1} differ from the msgid's {0}"
    "zh_CN.po: untranslated \"Missing in Korean\""
    "zh_CN.po: no entry for \"Rows: {0}\""
    "4 marked texts, 5 problems")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "missing \"${expected}\" in:\n${out}")
  endif()
endforeach()
