// What an SDK thread asks of the operating system: a name (debuggers, `top -H`, Windows' thread description), CPU
// pinning, a per-thread priority, and the real-time audio class where the system has one. One implementation per
// system (os_thread_linux.cpp, os_thread_windows.cpp; cmake/platform-sources.cmake picks one), so SdkThreads and the
// threads' owners stay free of system calls.
#pragma once
#include <cstdint>
#include <string>

namespace svcpp::core::os {

/**
 * A thread's id as the system's priority call names it (Linux: the kernel tid; Windows: GetCurrentThreadId, a 32-bit
 * DWORD, which SdkThreads keeps in its pid_t like a tid).
 */
using ThreadId = int64_t;

/** The calling thread's id. */
ThreadId CurrentThreadId();

/** Names the calling thread (Linux truncates to 15 bytes). */
void NameCurrentThread(const char *name);

/** Pins the calling thread to the CPUs set in mask (bit n = CPU n); a mask naming no CPU here is ignored. */
void PinCurrentThread(uint64_t mask);

/**
 * Gives thread tid the priority of a nice value (-20 highest … 19 lowest; Windows maps it onto its thread priority
 * levels). Empty on success, else why the system refused, for the warning SdkThreads logs.
 */
std::string SetThreadNice(ThreadId tid, int32_t nice);

/**
 * Puts the calling thread in the system's real-time audio class for the rest of its life (Windows: MMCSS "Pro Audio",
 * reverted as the thread ends; Linux has no such class for unprivileged processes: nothing, the nice value is all
 * there is).
 */
void EnterRealTimeAudioClass();

}  // namespace svcpp::core::os
