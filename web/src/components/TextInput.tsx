import {
  FormControl,
  FormHelperText,
  InputLabel,
  OutlinedInput,
  type OutlinedInputProps,
  type SxProps,
  type Theme,
} from '@mui/material';
import { useId, type ChangeEvent, type InputHTMLAttributes, type ReactNode } from 'react';

/** The part of MUI's TextField API the public pages use. */
export interface TextInputProps {
  label?: ReactNode;
  name?: string;
  type?: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  autoComplete?: string;
  autoFocus?: boolean;
  required?: boolean;
  disabled?: boolean;
  fullWidth?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  placeholder?: string;
  size?: 'small' | 'medium';
  sx?: SxProps<Theme>;
  slotProps?: {
    input?: Pick<OutlinedInputProps, 'startAdornment' | 'endAdornment'>;
    htmlInput?: InputHTMLAttributes<HTMLInputElement> & Record<`data-${string}`, string>;
  };
}

/**
 * An outlined text field drawn as MUI's TextField draws it (FormControl, InputLabel,
 * OutlinedInput, FormHelperText), for the login, registration and tags pages. TextField itself
 * also imports Select, and with it Menu, Popover, Modal and their transitions: 12 KB of brotli
 * those pages never use, which kept their first load over goal 8's 150 KB.
 */
export function TextInput({
  label,
  name,
  type,
  value,
  onChange,
  autoComplete,
  autoFocus,
  required,
  disabled,
  fullWidth,
  error,
  helperText,
  placeholder,
  size,
  sx,
  slotProps,
}: TextInputProps) {
  const id = useId();
  const helperId = helperText === undefined ? undefined : `${id}-helper`;
  return (
    <FormControl
      variant="outlined"
      required={required}
      disabled={disabled}
      fullWidth={fullWidth}
      error={error}
      size={size}
      sx={sx}
    >
      {label !== undefined && <InputLabel htmlFor={id}>{label}</InputLabel>}
      <OutlinedInput
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={onChange}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        placeholder={placeholder}
        label={label}
        aria-describedby={helperId}
        startAdornment={slotProps?.input?.startAdornment}
        endAdornment={slotProps?.input?.endAdornment}
        inputProps={slotProps?.htmlInput}
      />
      {helperText !== undefined && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
