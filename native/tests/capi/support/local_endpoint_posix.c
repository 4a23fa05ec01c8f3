#define _POSIX_C_SOURCE 200809L
#include "local_endpoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "../check.h"

struct LocalEndpoint {
    int listener;
    char dir[32];
    char path[96]; /* fits sockaddr_un.sun_path (108 bytes) */
};

LocalEndpoint *LocalEndpoint_Listen(char *path, size_t pathSize) {
    LocalEndpoint *e = (LocalEndpoint *)calloc(1, sizeof *e);
    struct sockaddr_un address;
    CHECK(e != NULL);
    strcpy(e->dir, "/tmp/svcpp-capi-rpc-XXXXXX");
    CHECK(mkdtemp(e->dir) != NULL);
    snprintf(e->path, sizeof e->path, "%s/discord-ipc-0", e->dir);
    e->listener = socket(AF_UNIX, SOCK_STREAM, 0);
    CHECK(e->listener >= 0);
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    strncpy(address.sun_path, e->path, sizeof address.sun_path - 1);
    CHECK(bind(e->listener, (struct sockaddr *)&address, sizeof address) == 0);
    CHECK(listen(e->listener, 4) == 0);
    CHECK(strlen(e->path) < pathSize);
    strcpy(path, e->path);
    return e;
}

LocalConnection LocalEndpoint_Accept(LocalEndpoint *e) {
    int fd = accept(e->listener, NULL, NULL);
    CHECK(fd >= 0);
    return fd;
}

void LocalEndpoint_Close(LocalEndpoint *e) {
    close(e->listener);
    unlink(e->path);
    rmdir(e->dir);
    free(e);
}

long LocalConnection_Read(LocalConnection c, void *buffer, size_t size) {
    ssize_t n = read((int)c, buffer, size);
    return n > 0 ? (long)n : 0;
}

int LocalConnection_Write(LocalConnection c, const void *bytes, size_t size) {
    return write((int)c, bytes, size) == (ssize_t)size;
}

void LocalConnection_Close(LocalConnection c) { close((int)c); }
