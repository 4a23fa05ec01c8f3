# Platform code lives in files named for the system they are for (docs/platforms.md "Platform code"): a small interface in
# the area that needs it (threads/os_thread.hpp, net/system_roots.hpp, rpc/ipc_stream.hpp, …) and one file per system
#   <name>_posix.cpp    every system but Windows            (.c too: the C test programs' helpers)
#   <name>_linux.cpp    Linux (x64 and arm64)                (and <name>_linux_test.cpp)
#   <name>_windows.cpp  Windows (MinGW-w64)                 (and <name>_windows_test.cpp)
# svcpp_platform_sources(<list variable>) drops from a list of sources the files of the other systems, so a folder's
# glob stays the folder's whole list and no shared file needs an #ifdef. A few files are for one system without the
# suffix (they predate the rule, and renaming them would only churn history): the PulseAudio backend (Linux), and
# WebRTC's audio processing, whose stand-in audio_processor_unavailable.cpp is built where the module is not
# (SVCPP_WEBRTC_APM, cmake/dependencies.cmake), and whose suite audio_processor_test.cpp only where it is.
function(svcpp_platform_sources list_var)
  set(kept)
  foreach(source IN LISTS ${list_var})
    get_filename_component(name "${source}" NAME)
    set(keep TRUE)
    if(name MATCHES "_windows(_test)?\\.(c|cpp)$" AND NOT WIN32)
      set(keep FALSE)
    elseif(name MATCHES "_posix\\.(c|cpp)$" AND WIN32)
      set(keep FALSE)
    elseif((name MATCHES "_linux(_test)?\\.(c|cpp)$" OR name MATCHES "^pulse_") AND NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
      set(keep FALSE)
    elseif(name MATCHES "^audio_processor(_test)?\\.cpp$" AND NOT SVCPP_WEBRTC_APM)
      set(keep FALSE)
    elseif(name STREQUAL "audio_processor_unavailable.cpp" AND SVCPP_WEBRTC_APM)
      set(keep FALSE)
    endif()
    if(keep)
      list(APPEND kept "${source}")
    endif()
  endforeach()
  set(${list_var} "${kept}" PARENT_SCOPE)
endfunction()

# The system libraries the platform files call into, linked by each library whose sources include them.
if(WIN32)
  #   ws2_32, mswsock  Winsock (Asio, the UDP send)    crypt32  the ROOT certificate store (and OpenSSL's own use)
  #   avrt             MMCSS "Pro Audio"               shell32  ShellExecuteW
  #   bcrypt, user32   OpenSSL's random seed and its Windows bits
  #   ole32, uuid      COM for WASAPI (CoCreateInstance, PropVariantClear; the interface ids)
  set(SVCPP_PLATFORM_LIBRARIES ws2_32 mswsock crypt32 avrt shell32 bcrypt user32 ole32 uuid)
else()
  set(SVCPP_PLATFORM_LIBRARIES ${CMAKE_DL_LIBS})
endif()
