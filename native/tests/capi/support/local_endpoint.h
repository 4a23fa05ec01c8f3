/*
 * The listening end of a local client, for the C programs that play one (local_rpc.c): a Unix socket in a fresh
 * temporary directory (local_endpoint_posix.c) or a named pipe \\.\pipe\svcpp-capi-rpc-<pid>-0
 * (local_endpoint_windows.c), the two transports the SDK's RPC client connects to (native/core/rpc/ipc_stream.hpp).
 * Blocking calls, one connection at a time, from the program's serving thread.
 */
#ifndef SVCPP_TESTS_LOCAL_ENDPOINT_H
#define SVCPP_TESTS_LOCAL_ENDPOINT_H
#include <stddef.h>
#include <stdint.h>

typedef struct LocalEndpoint LocalEndpoint;
typedef intptr_t LocalConnection; /* a descriptor or a HANDLE */

/** Starts listening; writes the path the SDK is to connect to (its IpcPath) into path. Aborts on failure. */
LocalEndpoint *LocalEndpoint_Listen(char *path, size_t pathSize);
/** Waits for the next connection. Aborts on failure. */
LocalConnection LocalEndpoint_Accept(LocalEndpoint *endpoint);
/** Stops listening and removes what Listen created. */
void LocalEndpoint_Close(LocalEndpoint *endpoint);

/** Reads up to size bytes: the count, 0 at the end of the stream (or an error). */
long LocalConnection_Read(LocalConnection connection, void *buffer, size_t size);
/** Writes all of the bytes: 1, or 0 on an error. */
int LocalConnection_Write(LocalConnection connection, const void *bytes, size_t size);
void LocalConnection_Close(LocalConnection connection);

#endif
