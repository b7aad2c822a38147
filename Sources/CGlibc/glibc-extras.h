// What lifesignal needs of glibc that Swift's Glibc module does not export: mallopt and
// malloc_trim (malloc.h), renameat2 (declared only under _GNU_SOURCE; glibc 2.28, Linux
// 3.15), and fstatfs (sys/vfs.h: which file system holds a file). Declarations only, no code.
// Empty where malloc.h is absent.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#include <fcntl.h>
#include <sys/vfs.h>
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
// Swaps the two names in one step: each then names the other's file.
#define LIFESIGNAL_RENAME_EXCHANGE (1 << 1)
#endif
