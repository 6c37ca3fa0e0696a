// The verifier of tile_aa/tile_as.mmaf_scaled: the one form block-scaled
// mma.sync runs (fp8 operands, f8E8M0FNU scales per 32 k, f32 accumulator).

func.func @ok(%a: tensor<16x64xf8E4M3FN>, %b: tensor<64x8xf8E5M2>, %c: tensor<16x8xf32>,
              %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x8xf8E8M0FNU>) -> tensor<16x8xf32> {
  %0 = tile_aa.mmaf_scaled %a, %b, %c scales(%sa, %sb) : tensor<16x64xf8E4M3FN>, tensor<64x8xf8E5M2>, tensor<16x8xf32>, tensor<16x2xf8E8M0FNU>, tensor<2x8xf8E8M0FNU>
  %1 = tile_as.mmaf_scaled %a, %b, %0 scales(%sa, %sb) : tensor<16x64xf8E4M3FN>, tensor<64x8xf8E5M2>, tensor<16x8xf32>, tensor<16x2xf8E8M0FNU>, tensor<2x8xf8E8M0FNU>
  return %1 : tensor<16x8xf32>
}

// -----

func.func @f16_operands(%a: tensor<16x64xf16>, %b: tensor<64x8xf16>, %c: tensor<16x8xf32>,
                        %sa: tensor<16x2xf8E8M0FNU>, %sb: tensor<2x8xf8E8M0FNU>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'tile_aa.mmaf_scaled' op operands must be f8E4M3FN or f8E5M2}}
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
