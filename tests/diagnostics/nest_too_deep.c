void f(int n, double A[4]) {
  int a, b, c, d, e, g, h, i, j, k, l, m, o, p, q, r, s;
#pragma scop
  for (a = 0; a < n; a++)
   for (b = 0; b < n; b++)
    for (c = 0; c < n; c++)
     for (d = 0; d < n; d++)
      for (e = 0; e < n; e++)
       for (g = 0; g < n; g++)
        for (h = 0; h < n; h++)
         for (i = 0; i < n; i++)
          for (j = 0; j < n; j++)
           for (k = 0; k < n; k++)
            for (l = 0; l < n; l++)
             for (m = 0; m < n; m++)
              for (o = 0; o < n; o++)
               for (p = 0; p < n; p++)
                for (q = 0; q < n; q++)
                 for (r = 0; r < n; r++)
                  for (s = 0; s < n; s++) // expected-error {{loop nest deeper than 16 levels}}
                   A[0] += 1;
#pragma endscop
}
