/* compound_mixed.c -- compound assignments (+= -= *= /= %= &= |= ^= <<=
 * >>=, ++, --) whose operands have other types than their target, on
 * floating types, on local scalars, and carried by a loop.  C computes
 * `x op= v` in the type of `x op v` and converts the result back to x's
 * type: `I[i] -= U[i]` computes in unsigned, `I[i] &= L[i]` in long,
 * `UL[i] |= C8[i]` converts a negative char to unsigned long, `C8[i] +=
 * UL[i]` stores an unsigned long sum into a char, `I[i] *= 2.5` and
 * `F[i] *= 1.5` compute in double.  Local scalars (private to each
 * iteration) are updated in place; `|=`, `^=` and `&=` reduce a loop into
 * scalars and an inner loop into elements (the threads of a block share
 * them, with the identities 0, 0 and all ones); an FNV-1a hash and an
 * accumulator are carried by the loop (sequential).  The scalars are read
 * after the scop.  No signed
 * operation overflows, no shift reaches its type's width or shifts a
 * negative value, no divisor is zero (gcc -fsanitize=undefined finds
 * nothing).  compound_ops.c has every operator on each integer width.
 * (Issue #47: '%=', '&=', '|=', '^=', '<<=' and '>>=' were refused.)
 *
 * Integers are printed in hexadecimal (0x...): the comparison of outputs
 * then takes them as words, compared exactly, where a relative tolerance
 * would let a 64-bit value pass for its neighbours.
 *
 * Part of the polycuda test inputs.  Sizes: -DMINI_DATASET (default),
 * -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET, or individual -D<SIZE>=...
 * Element type of the floating arrays: -DDATA_TYPE=... (default double).
 * Prints every output array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

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

#ifndef DATA_TYPE
# define DATA_TYPE double
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

static void print_array(const char *name, const DATA_TYPE *a, long count)
{
  long i;
  printf("== %s\n", name);
  for (i = 0; i < count; i++)
    printf("%.10e%c", (double)a[i], (i % 8 == 7 || i == count - 1) ? '\n' : ' ');
}

static void kernel_compound_mixed(int n, signed char C8[N],
                                  unsigned char U8[N], unsigned short U16[N],
                                  int I[N], unsigned U[N], long L[N],
                                  unsigned long UL[N], float F[N],
                                  DATA_TYPE D[N], unsigned long out[5])
{
  int i, j;
  unsigned any = 0;
  long par = 0;
  unsigned long all = ~0ul;
  unsigned h = 2166136261u;
  long acc = 1;

#pragma scop
  for (i = 0; i < n; i++) {
    /* float and double */
    F[i] /= 3;
    F[i] *= 1.5;
    F[i]++;
    D[i] /= i + 1;
    D[i] -= D[i] / 3;
    D[i]--;
  }
  /* mixed types: int in long and unsigned arithmetic, unsigned in int,
     long and unsigned long arithmetic, a negative char or'ed into an
     unsigned long, a char updated in unsigned long arithmetic, doubles
     into int */
  for (i = 0; i < n; i++) {
    I[i] &= L[i];
    I[i] -= U[i];
    U[i] += I[i];
    L[i] -= U[i];
    UL[i] |= C8[i];
    C8[i] += UL[i];
    I[i] &= 0x7fffffff;
    I[i] >>= 1;
    I[i] %= 100000;
    I[i] *= 2.5;
    D[i] *= F[i];
  }
  /* local scalars */
  for (i = 0; i < n; i++) {
    unsigned t = U[i];
    long s = L[i] % 100000;
    t >>= 3;
    t |= 1u;
    U16[i] += t;
    s /= -3;
    s &= ~15L;
    s--;
    L[i] = s;
  }
  /* bitwise reductions: into scalars over a loop, into an element over
     the inner loop */
  for (i = 0; i < n; i++)
    any |= U[i] & 0xf0f0f0u;
  for (i = 0; i < n; i++)
    par ^= L[i];
  for (i = 0; i < n; i++)
    all &= UL[i] | 0x8000000000000001ul;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      U16[i] ^= (unsigned short)(i * j + j);
  /* carried by the loop: an FNV-1a hash and an accumulator */
  for (i = 0; i < n; i++) {
    h ^= U8[i];
    h *= 16777619u;
    acc *= 3;
    acc ^= L[i];
    acc %= 1000000007;
  }
#pragma endscop
  out[0] = h;
  out[1] = acc;
  out[2] = any;
  out[3] = par;
  out[4] = all;
}

int main(void)
{
  static signed char C8[N];
  static unsigned char U8[N];
  static unsigned short U16[N];
  static int I[N];
  static unsigned U[N];
  static long L[N];
  static unsigned long UL[N], out[5], w[N];
  static float F[N];
  static DATA_TYPE D[N], Fd[N];
  int i;

  for (i = 0; i < N; i++) {
    C8[i] = (signed char)((i * 37) % 200 - 100);
    U8[i] = (unsigned char)(i * 53);
    U16[i] = (unsigned short)(i * 4099);
    I[i] = (i * 104729) % 2000001 - 1000000;
    U[i] = 4000000000u - 77u * (unsigned)i;
    L[i] = (i % 2 ? -1L : 1L) * (3000000000L + i * 1000003L);
    UL[i] = 0x9e3779b97f4a7c15ul * (unsigned long)(i + 1);
    F[i] = (float)(i % 13) / 13 + 0.5f;
    D[i] = (DATA_TYPE)((7 * i) % 11) / 11 - 0.25;
  }

  kernel_compound_mixed(N, C8, U8, U16, I, U, L, UL, F, D, out);

#define WORDS(name, a, is_signed)               \
  do {                                          \
    for (i = 0; i < N; i++)                     \
      w[i] = (unsigned long)(a)[i];             \
    print_words(name, w, is_signed, N);         \
  } while (0)
  WORDS("C8", C8, 1);
  WORDS("U8", U8, 0);
  WORDS("U16", U16, 0);
  WORDS("I", I, 1);
  WORDS("U", U, 0);
  WORDS("L", L, 1);
  WORDS("UL", UL, 0);
  print_words("out", out, 0, 5);
  for (i = 0; i < N; i++)
    Fd[i] = F[i];
  print_array("F", Fd, N);
  print_array("D", D, N);
  return 0;
}
