/*
 * Stand-in bcryptprimitives.dll for the wine smoke test ONLY; never shipped.
 *
 * Rust's standard library (1.78+) seeds HashMap keys through ProcessPrng from
 * bcryptprimitives.dll. Windows 10/11 have it, but wine 8 has no such DLL, so
 * the loader refuses the exe and it exits silently with code 53. .ci/windows-exe
 * compiles this file with mingw into the temporary wine prefix's system32, so
 * the exe we test is byte for byte the exe we ship.
 *
 * RtlGenRandom (exported as SystemFunction036) is the older system RNG that
 * wine does implement; it takes a 32-bit length, hence the chunking.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
