# Installs the build tree into a scratch prefix, builds tests/install/consumer against it with
# find_package(polynav), and runs it on a bundled scene.
set(prefix "${BUILD_DIR}/install-test/prefix")
set(consumer_build "${BUILD_DIR}/install-test/consumer")
file(REMOVE_RECURSE "${BUILD_DIR}/install-test")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/install/consumer"
                        -B "${consumer_build}" "-DCMAKE_PREFIX_PATH=${prefix}"
                        "-DEXAMPLE_SOURCE=${SOURCE_DIR}/examples/plan_scene.cpp"
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed: ${rc}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${consumer_build}" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed: ${rc}")
endif()
execute_process(COMMAND "${consumer_build}/consumer" "${SOURCE_DIR}/scenes/warehouse.yaml"
                        2 1.5 12 10.5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(rc)
  message(FATAL_ERROR "the consumer failed (${rc}): ${out}")
endif()
if(NOT out MATCHES "^length [0-9.]+, cost [0-9.]+\n2 1.5\n")
  message(FATAL_ERROR "unexpected consumer output: ${out}")
endif()
message(STATUS "consumer built against the installed polynav and planned:\n${out}")
