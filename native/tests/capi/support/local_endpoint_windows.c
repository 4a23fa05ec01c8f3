#include "local_endpoint.h"

#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

/* A named pipe server keeps one instance waiting for the next client: an instance is made before each accept, so the
 * SDK's reconnect (which opens the pipe once and retries later when no instance waits) finds one. */
struct LocalEndpoint {
    wchar_t name[64];
    HANDLE waiting; /* the instance the next client connects to */
};

static HANDLE NewInstance(const wchar_t *name) {
    HANDLE pipe = CreateNamedPipeW(name, PIPE_ACCESS_DUPLEX, PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT,
                                   PIPE_UNLIMITED_INSTANCES, 65536, 65536, 0, NULL);
    CHECK(pipe != INVALID_HANDLE_VALUE);
    return pipe;
}

LocalEndpoint *LocalEndpoint_Listen(char *path, size_t pathSize) {
    LocalEndpoint *e = (LocalEndpoint *)calloc(1, sizeof *e);
    CHECK(e != NULL);
    /* Named per process, so two runs never meet; the SDK opens the same name as \\?\pipe\... or \\.\pipe\... */
    swprintf(e->name, sizeof e->name / sizeof e->name[0], L"\\\\.\\pipe\\svcpp-capi-rpc-%lu-0",
             (unsigned long)GetCurrentProcessId());
    e->waiting = NewInstance(e->name);
    CHECK(snprintf(path, pathSize, "\\\\.\\pipe\\svcpp-capi-rpc-%lu-0", (unsigned long)GetCurrentProcessId()) <
          (int)pathSize);
    return e;
}

LocalConnection LocalEndpoint_Accept(LocalEndpoint *e) {
    HANDLE connected = e->waiting;
    /* FALSE with ERROR_PIPE_CONNECTED: the client opened the instance before this call, which is a connection too. */
    CHECK(ConnectNamedPipe(connected, NULL) || GetLastError() == ERROR_PIPE_CONNECTED);
    e->waiting = NewInstance(e->name);
    return (LocalConnection)connected;
}

void LocalEndpoint_Close(LocalEndpoint *e) {
    CloseHandle(e->waiting);
    free(e);
}

long LocalConnection_Read(LocalConnection c, void *buffer, size_t size) {
    DWORD n = 0;
    /* The client's close ends the stream: ERROR_BROKEN_PIPE, reported as 0 like a socket's end of file. */
    if (!ReadFile((HANDLE)c, buffer, (DWORD)size, &n, NULL)) return 0;
    return (long)n;
}

int LocalConnection_Write(LocalConnection c, const void *bytes, size_t size) {
    DWORD n = 0;
    return WriteFile((HANDLE)c, bytes, (DWORD)size, &n, NULL) && n == size;
}

void LocalConnection_Close(LocalConnection c) {
    HANDLE pipe = (HANDLE)c;
    FlushFileBuffers(pipe);
    DisconnectNamedPipe(pipe);
    CloseHandle(pipe);
}
