#ifndef CHEAPUSAGE_H
#define CHEAPUSAGE_H

#include <stddef.h>

/// Bytes the allocator has handed out and not yet taken back, or 0 where unknown.
size_t heap_bytes_in_use(void);

#endif
