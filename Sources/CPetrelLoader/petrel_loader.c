/* See include/petrel_loader.h. */
#include "petrel_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A copy of `text` that outlives the call, or `fallback`. */
static const char *kept(const char *text, const char *fallback) {
    char *copy = text ? strdup(text) : NULL;
    return copy ? copy : fallback;
}

const char *petrel_load_library(const char *library, size_t count, const char *const names[], void *const slots[]) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) return kept(dlerror(), "a shared library cannot be loaded");
    for (size_t index = 0; index < count; index++) {
        void *symbol = dlsym(handle, names[index]);
        if (!symbol) {
            char message[256];
            snprintf(message, sizeof message, "%s lacks %s", library, names[index]);
            return kept(message, "a shared library lacks a function");
        }
        /* POSIX: a function pointer and an object pointer have one
         * representation (what dlsym relies on). */
        memcpy(slots[index], &symbol, sizeof symbol);
    }
    return NULL;
}
