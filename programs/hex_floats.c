/* Hexadecimal floating constants (C99 6.4.4.2) and printf's %a/%A, against gcc and glibc:
   constants rounded once to double or float (ties to even, subnormals, overflow to
   infinity), and %a with every flag, width and precision (rounding into the leading digit). */
#include <stdio.h>

int main(void) {
    double values[] = {0.0, -0.0, 1.0, 1.5, -2.75, 0.1, 1e300, 1e-300, 4.9406564584124654e-324,
                       2.2250738585072014e-308, 1.7976931348623157e308, 3.14159265358979, 255.0 / 256.0,
                       1.0 / 3.0, 0x1.fffffffffffffp0, 0x1.08p0, 0x1.18p0, 0x1.28p0, 0x1.8000000000001p0,
                       0x1.f8p0, 0x0.8p-1022, 1e-310};
    int i;
    unsigned long seed = 12345;
    for (i = 0; i < 22; i++) {
        printf("%a|", values[i]);
        printf("%A|", values[i]);
        printf("%.0a|", values[i]);
        printf("%.1a|", values[i]);
        printf("%.2a|", values[i]);
        printf("%.3a|", values[i]);
        printf("%.13a|", values[i]);
        printf("%.15a|", values[i]);
        printf("%#a|", values[i]);
        printf("%#.0a|", values[i]);
        printf("%+a|", values[i]);
        printf("% a|", values[i]);
        printf("%20a|", values[i]);
        printf("%-20a|", values[i]);
        printf("%020a|", values[i]);
        printf("%+020.3A|", values[i]);
        printf("\n");
    }
    printf("%a %.0a %.0a %.0a\n", (double)0x1.8p1f, 0.5, 2.5, 3.5);
    printf("%a\n", 0x1p-1074);
    printf("%a\n", 0x1p-1075);
    printf("%a\n", 0x1.0000000000001p-1075);
    printf("%a\n", 0x1.8p-1075);
    printf("%a\n", 0x1p-1076);
    printf("%a\n", 0x1.fffffffffffff8p1023);
    printf("%a\n", 0x1.fffffffffffff7ffp1023);
    printf("%a\n", 0x1p1024);
    printf("%a\n", 0x1.00000000000008p0);
    printf("%a\n", 0x1.00000000000018p0);
    printf("%a\n", 0x1.000000000000080000000000001p0);
    printf("%a\n", (double)0x1p-149f);
    printf("%a\n", (double)0x1p-150f);
    printf("%a\n", (double)0x1.8p-150f);
    printf("%a\n", (double)0x1.fffffep127f);
    printf("%a\n", (double)0x1.ffffffp127f);
    printf("%a\n", (double)0x1.000001p0f);
    printf("%a\n", (double)0x1.000003p0f);
    printf("%a\n", 0x.8p1);
    printf("%a\n", 0x10p-4);
    printf("%a\n", 0X1P+2);
    printf("%a\n", 0x0p0);
    printf("%a\n", 0x0.0000p100);
    printf("%a\n", 0x4cE.12B3bC1Ap15);
    printf("%a\n", 0x.C3p-1027);
    printf("%a\n", 0xB.4p-1029);
    printf("%a\n", 0x3B2C1D6.fFBdap127);
    printf("%a\n", 0x9Afae9D23Ad5a4fd1.F2p18);
    printf("%a\n", (double)0xe228fF219EC.Fe9cFb0ep-130f);
    printf("%a\n", 0x7ccf25ecB84dB8dbFc742.547p-1067);
    printf("%a\n", (double)0xBbDCa4.ADEF1eFBp86f);
    printf("%a\n", 0x.26e53aDp-1054);
    printf("%a\n", (double)0xc4E8bDbf33feff9243a8p-144f);
    printf("%a\n", (double)0x.B0A9Ep-121f);
    printf("%a\n", 0x7BBAaE7D67c76Afb008f86Dbep-1090);
    printf("%a\n", 0x6a6fDD0fEbE2F3c6p9);
    printf("%a\n", 0x255404CeE4DDfFb4BB400E3Ap-1073);
    printf("%a\n", 0xA7Ca8Bd.41bp-1047);
    printf("%a\n", 0xA0e5D0454fD3B1aF.Ap-1029);
    printf("%a\n", 0x13AeB02eap12);
    printf("%a\n", 0x7A8B6e.4d3cea2F7d2p1026);
    printf("%a\n", 0x4e73cf5F75dAcad6ba2.b0aBee0caAp1018);
    printf("%a\n", 0x1584dF8c4p-1089);
    printf("%a\n", 0x280E282D7283e0p-1021);
    printf("%a\n", 0x5815p-1063);
    printf("%a\n", 0xb08100AB.6p11);
    printf("%a\n", 0x9.67a6E4cb1402E8d5p-1015);
    printf("%a\n", 0x91e558e08baBa71.96b50ac2p1015);
    printf("%a\n", 0x24cC1c099E72CA4FDcaf.49DE41Ap-1083);
    printf("%a\n", (double)0x014p120f);
    printf("%a\n", (double)0x.Ep128f);
    printf("%a\n", (double)0xFA2.p-25f);
    printf("%a\n", (double)0xEefc2fF91DEE62D.4a8E9DC40p123f);
    printf("%a\n", 0x9A9eee3B692f09e2p0);
    printf("%a\n", 0x24A8b4DEA83b7ff.c050p1026);
    printf("%a\n", 0xa0a.ap-1052);
    printf("%a\n", (double)0xcC.2bd81831F9Ep-140f);
    printf("%a\n", 0xd0EcBB621deD4E9f1B45fda998p-1);
    printf("%a\n", (double)0xFc35E5.26AfB7eaed4Bp124f);
    printf("%a\n", (double)0x8C60dcdA6c8a.p130f);
    printf("%a\n", (double)0xE6287ccEed9041d.fCp-123f);
    printf("%a\n", 0x3744AF3.Ep-1095);
    printf("%a\n", (double)0x94E8AEd3329AC6c87D00Bp-130f);
    printf("%a\n", (double)0x7B70dE9106fFEd287p125f);
    printf("%a\n", 0xbFc609A.26f6967p-1087);
    printf("%a\n", 0x7.fdF1D4c160D4d115cea325a65EAep431);
    printf("%a\n", 0x2.p1021);
    printf("%a\n", (double)0x9d21f6bB.e6abf0Ed7Ec1c1e21p-139f);
    printf("%a\n", 0x18a89.0DE2073fec8df4fp1022);
    printf("%a\n", 0xbD2A6c57d2.E1fBBp-670);
    printf("%a\n", 0x3dfe57.4p1018);
    printf("%a\n", (double)0xC8b.886e75p136f);
    printf("%a\n", 0x87AA7E3Ee130f.p431);
    printf("%a\n", (double)0x6D.p-123f);
    printf("%a\n", 0x8F03EDDb61ba41681DE6p-1077);
    printf("%a\n", (double)0xf.Bp42f);
    printf("%a\n", (double)0xB2E5c8d9F9d19Cbdd0bE6p-137f);
    printf("%a\n", (double)0x2cCbp122f);
    printf("%a\n", 0xc2CDbA54b95A.523cf6941fa1DEp19);
    printf("%a\n", 0x6f5C61cA5c.b34761BF1Fp-1017);
    printf("%a\n", 0xcFbeAe500Dfe.7ep-365);
    printf("%a\n", (double)0xbdb2.ep125f);
    printf("%a\n", 0x21AcE402D364f95F7p1025);
    return 0;
}
