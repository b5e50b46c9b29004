/* compound_ops.c -- the compound assignments of C (+= -= *= /= %= &= |=
 * ^= <<= >>=) and ++/-- on array elements of char, unsigned char, short,
 * unsigned short, int, unsigned, long and unsigned long.  C computes
 * `x op= v` in the type of `x op v` (x promoted; for shifts, x's promoted
 * type alone) and converts the result back to x's type: unsigned char and
 * unsigned short updates computed in int and stored modulo 2^8 and 2^16,
 * unsigned and unsigned long updates that wrap, negative dividends and
 * divisors, shifts up to the width less one.  Elementwise updates
 * (parallel) and a column-wise `|=` (parallel in the column).  No signed
 * operation overflows, no shift reaches its type's width or shifts a
 * negative value, no divisor is zero (gcc -fsanitize=undefined finds
 * nothing).  compound_mixed.c has the mixed types, floating types, local
 * scalars and updates carried by a loop.
 * (Issue #47: '%=', '&=', '|=', '^=', '<<=' and '>>=' were refused.)
 *
 * Integers are printed in hexadecimal (0x...): the comparison of outputs
 * then takes them as words, compared exactly, where a relative tolerance
 * would let a 64-bit value pass for its neighbours.
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Prints every output array.
 */
#include <stdio.h>
#include <stdlib.h>

/* gcc does not know the scop pragmas; keep -Wall quiet about them. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && \
    !defined(MEDIUM_DATASET) && !defined(LARGE_DATASET)
# define MINI_DATASET
#endif

#if defined(MINI_DATASET)
# ifndef N
#  define N 40
# endif
#elif defined(SMALL_DATASET)
# ifndef N
#  define N 200
# endif
#elif defined(MEDIUM_DATASET)
# ifndef N
#  define N 1000
# endif
#elif defined(LARGE_DATASET)
# ifndef N
#  define N 2000
# endif
#endif

/* Integers as words: 0x..., or -0x... for a negative signed value. */
static void print_words(const char *name, const unsigned long *a,
                        int is_signed, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++) {
    if (is_signed && (long)a[i] < 0)
      printf("-0x%lx", -a[i]);
    else
      printf("0x%lx", a[i]);
    putchar((i % 8 == 7 || i == count - 1) ? '\n' : ' ');
  }
}

static void kernel_compound_ops(int n, signed char C8[N], unsigned char U8[N],
                                short S16[N], unsigned short U16[N],
                                int I[N], unsigned U[N], long L[N],
                                unsigned long UL[N], int M[N][N],
                                unsigned Col[N])
{
  int i, j;

#pragma scop
  for (i = 0; i < n; i++) {
    /* unsigned char and short: computed in int, stored modulo 2^8, 2^16 */
    U8[i] += 250;
    U8[i] <<= i % 8;
    U8[i] ^= 0xa5;
    U8[i]--;
    U16[i] -= 40000;
    U16[i] *= 3u;
    U16[i] >>= i % 16;
    /* signed char and short: negative dividends and divisors */
    C8[i] %= 7;
    C8[i] *= -9;
    C8[i] /= -4;
    C8[i] |= 0x10;
    ++C8[i];
    S16[i] *= 300;
    S16[i] ^= i << 9;
    /* int */
    I[i] %= -7 - i % 5;
    I[i] /= 3 - i % 7 * 2;
    I[i] &= 0xff;
    I[i] <<= i % 20;
    I[i] ^= -i;
    /* unsigned: wrapping products, shifts up to 31 */
    U[i] *= 2654435761u;
    U[i] <<= 31 - i % 32;
    U[i] %= 1000u + i;
    U[i] /= i + 1;
    U[i]++;
    /* long */
    L[i] *= -3;
    L[i] %= 1000003;
    L[i] &= 0xffffffL;
    L[i] <<= 20;
    L[i] >>= 3;
    L[i] /= -(long)(i % 9) - 1;
    /* unsigned long: a linear congruential step that wraps */
    UL[i] *= 6364136223846793005ul;
    UL[i] += 1442695040888963407ul;
    UL[i] ^= UL[i] >> 29;
    UL[i]--;
  }
  /* a column-wise |= and ^= (parallel in j, not in i) */
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      M[i][j] ^= (i * 31 + j) << j % 4;
      M[i][j] %= 1000 + j;
      Col[j] |= M[i][j] & 0xff;
    }
#pragma endscop
}

int main(void)
{
  static signed char C8[N];
  static unsigned char U8[N];
  static short S16[N];
  static unsigned short U16[N];
  static int I[N], M[N][N];
  static unsigned U[N], Col[N];
  static long L[N];
  static unsigned long UL[N], w[N];
  int i, j;

  for (i = 0; i < N; i++) {
    C8[i] = (signed char)((i * 37) % 200 - 100);
    U8[i] = (unsigned char)(i * 53);
    S16[i] = (short)((i * 7919) % 60000 - 30000) / 300;
    U16[i] = (unsigned short)(i * 4099);
    I[i] = (i * 104729) % 2000001 - 1000000;
    U[i] = 4000000000u - 77u * (unsigned)i;
    L[i] = (i % 2 ? -1L : 1L) * (3000000000L + i * 1000003L);
    UL[i] = 0x9e3779b97f4a7c15ul * (unsigned long)(i + 1);
    Col[i] = (unsigned)i;
    for (j = 0; j < N; j++)
      M[i][j] = (i * 131 + j * 17) % 4001 - 2000;
  }

  kernel_compound_ops(N, C8, U8, S16, U16, I, U, L, UL, M, Col);

#define WORDS(name, a, is_signed)               \
  do {                                          \
    for (i = 0; i < N; i++)                     \
      w[i] = (unsigned long)(a)[i];             \
    print_words(name, w, is_signed, N);         \
  } while (0)
  WORDS("C8", C8, 1);
  WORDS("U8", U8, 0);
  WORDS("S16", S16, 1);
  WORDS("U16", U16, 0);
  WORDS("I", I, 1);
  WORDS("U", U, 0);
  WORDS("L", L, 1);
  WORDS("UL", UL, 0);
  WORDS("Col", Col, 0);
  for (i = 0; i < N; i++)
    WORDS("M", M[i], 1);
  return 0;
}
