# Sourced by the capture tests after tests/bench/check.sh, with `capture` set: the copies and
# barriers the layer records pass the validation layer's synchronization checks.
# synchronized WHAT WANT ARGS...: the capture with ARGS under that layer has no validation error
# and prints WANT; where the layer is not installed, nothing is run.
synchronized() {
  local what=$1 want=$2
  shift 2
  [[ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ]] || return 0
  out=$(VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT \
        VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$capture" "$@" 2>&1)
  if [[ $? -ne 0 || $out == *"Validation Error"* || $out != *"$want"* ]]; then
    echo "FAIL: $what under synchronization validation:"
    echo "$out" | head -20
    fail=1
  else
    echo "ok: $what pass synchronization validation"
  fi
}
