// glibc's mallopt, which Swift's Glibc module does not export. Empty where malloc.h is absent.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#endif
