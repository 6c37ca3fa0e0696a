// The verifier of tile_aa/tile_as.mmaf_scaled: the forms block-scaled
// mma.sync runs (fp8 operands with f8E8M0FNU scales per 32 k; f4E2M1FN
// operands with f8E8M0FNU scales per 32 k (MX-FP4) or f8E4M3FN scales per
// 16 k (NVFP4), K a multiple of 64; f32 accumulator).

func.func @ok(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x8xf8E5M2>, %c: tensor<16x8xf32>,
              %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x8xf8E8M0FNU>) -> tensor<16x8xf32> {
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf8E4M3FN>, tensor<64x8xf8E5M2>, tensor<16x8xf32>, tensor<16x2xf8E8M0FNU>, tensor<2x8xf8E8M0FNU>
  %1 = tile_as.mmaf_scaled %a, %b, %0 scales(%sa, %sb) : tensor<16x64xf8E4M3FN>, tensor<64x8xf8E5M2>, tensor<16x8xf32>, tensor<16x2xf8E8M0FNU>, tensor<2x8xf8E8M0FNU>
  return %1 : tensor<16x8xf32>
}

// -----

func.func @f16_operands(%a: tensor<16x64xf16>, %b: tensor<64x8xf16>, %c: tensor<16x8xf32>,
                        %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x8xf8E8M0FNU>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op operands must be f8E4M3FN or f8E5M2, or both f4E2M1FN}}
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf16>, tensor<64x8xf16>, tensor<16x8xf32>, tensor<16x2xf8E8M0FNU>, tensor<2x8xf8E8M0FNU>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @f32_scales(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x8xf8E4M3FN>, %c: tensor<16x8xf32>,
                      %sa: tensor<16x2xf32>, %sb: tensor<2x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_as.mmaf_scaled' op scales must be f8E8M0FNU}}
  %0 = tile_as.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf8E4M3FN>, tensor<64x8xf8E4M3FN>, tensor<16x8xf32>, tensor<16x2xf32>, tensor<2x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @block_16(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x8xf8E4M3FN>, %c: tensor<16x8xf32>,
                    %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<4x8xf8E8M0FNU>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op scales must be [M, K/32] and [K/32, N]}}
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf8E4M3FN>, tensor<64x8xf8E4M3FN>, tensor<16x8xf32>, tensor<16x4xf8E8M0FNU>, tensor<4x8xf8E8M0FNU>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @k_48(%a: tensor<16x48xf8E4M3FN>, %b: tensor<48x8xf8E4M3FN>, %c: tensor<16x8xf32>,
                %sa: tensor<16x1xf8E8M0FNU>, %sb: tensor<1x8xf8E8M0FNU>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op K must be a multiple of 32}}
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x48xf8E4M3FN>, tensor<48x8xf8E4M3FN>, tensor<16x8xf32>, tensor<16x1xf8E8M0FNU>, tensor<1x8xf8E8M0FNU>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @f16_acc(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x8xf8E4M3FN>, %c: tensor<16x8xf16>,
                   %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x8xf8E8M0FNU>) -> tensor<16x8xf16> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op the accumulator must be f32}}
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf8E4M3FN>, tensor<64x8xf8E4M3FN>, tensor<16x8xf16>, tensor<16x2xf8E8M0FNU>, tensor<2x8xf8E8M0FNU>
  return %0 : tensor<16x8xf16>
}

// -----

func.func @mismatched_n(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x16xf8E4M3FN>, %c: tensor<16x8xf32>,
                        %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x8xf8E8M0FNU>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op shapes are not [M, K] x [K, N] + [M, N]}}
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf8E4M3FN>, tensor<64x16xf8E4M3FN>, tensor<16x8xf32>, tensor<16x2xf8E8M0FNU>, tensor<2x8xf8E8M0FNU>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @fp4_ok(%a: tensor<16x128xf4E2M1FN>, %b: tensor<128x8xf4E2M1FN>, %c: tensor<16x8xf32>,
                  %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<4x8xf8E8M0FNU>,
                  %na: tensor<16x8xf8E4M3FN>, %nb: tensor<8x8xf8E4M3FN>) -> tensor<16x8xf32> {
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x128xf4E2M1FN>, tensor<128x8xf4E2M1FN>, tensor<16x8xf32>, tensor<16x4xf8E8M0FNU>, tensor<4x8xf8E8M0FNU>
  %1 = tile_as.mmaf_scaled %a, %b, %0 scales(%na, %nb) : tensor<16x128xf4E2M1FN>, tensor<128x8xf4E2M1FN>, tensor<16x8xf32>, tensor<16x8xf8E4M3FN>, tensor<8x8xf8E4M3FN>
  return %1 : tensor<16x8xf32>
}

// -----

func.func @fp4_times_fp8(%a: tensor<16x64xf4E2M1FN>, %b: tensor<64x8xf8E4M3FN>, %c: tensor<16x8xf32>,
                         %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x8xf8E8M0FNU>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op operands must be f8E4M3FN or f8E5M2, or both f4E2M1FN}}
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf4E2M1FN>, tensor<64x8xf8E4M3FN>, tensor<16x8xf32>, tensor<16x2xf8E8M0FNU>, tensor<2x8xf8E8M0FNU>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @fp4_f16_scales(%a: tensor<16x64xf4E2M1FN>, %b: tensor<64x8xf4E2M1FN>, %c: tensor<16x8xf32>,
                          %sa: tensor<16x4xf16>, %sb: tensor<4x8xf16>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_as.mmaf_scaled' op f4E2M1FN scales must be f8E8M0FNU (mxf4) or f8E4M3FN (nvf4)}}
  %0 = tile_as.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf4E2M1FN>, tensor<64x8xf4E2M1FN>, tensor<16x8xf32>, tensor<16x4xf16>, tensor<4x8xf16>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @nvf4_block_32(%a: tensor<16x64xf4E2M1FN>, %b: tensor<64x8xf4E2M1FN>, %c: tensor<16x8xf32>,
                         %sa: tensor<16x2xf8E4M3FN>, %sb: tensor<2x8xf8E4M3FN>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op scales must be [M, K/16] and [K/16, N]}}
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf4E2M1FN>, tensor<64x8xf4E2M1FN>, tensor<16x8xf32>, tensor<16x2xf8E4M3FN>, tensor<2x8xf8E4M3FN>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @fp4_k_32(%a: tensor<16x32xf4E2M1FN>, %b: tensor<32x8xf4E2M1FN>, %c: tensor<16x8xf32>,
                    %sa: tensor<16x1xf8E8M0FNU>, %sb: tensor<1x8xf8E8M0FNU>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op K must be a multiple of 64}}
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x32xf4E2M1FN>, tensor<32x8xf4E2M1FN>, tensor<16x8xf32>, tensor<16x1xf8E8M0FNU>, tensor<1x8xf8E8M0FNU>
  return %0 : tensor<16x8xf32>
}

// -----

func.func @mixed_scales(%a: tensor<16x64xf4E2M1FN>, %b: tensor<64x8xf4E2M1FN>, %c: tensor<16x8xf32>,
                        %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<4x8xf8E4M3FN>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op both scales must have one type}}
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf4E2M1FN>, tensor<64x8xf4E2M1FN>, tensor<16x8xf32>, tensor<16x2xf8E8M0FNU>, tensor<4x8xf8E4M3FN>
  return %0 : tensor<16x8xf32>
}
