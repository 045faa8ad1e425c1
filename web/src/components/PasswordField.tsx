import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { IconButton, InputAdornment } from '@mui/material';
import { useState } from 'react';
import { TextInput, type TextInputProps } from './TextInput.js';

/** A password field whose text can be shown, so a long password can be checked before sending. */
export function PasswordField(props: Omit<TextInputProps, 'type' | 'slotProps'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={visible ? 'Nascondi password' : 'Mostra password'}
                onClick={() => {
                  setVisible((shown) => !shown);
                }}
                edge="end"
                size="small"
              >
                {visible ? (
                  <VisibilityOffIcon fontSize="small" />
                ) : (
                  <VisibilityIcon fontSize="small" />
                )}
              </IconButton>
            </InputAdornment>
          ),
        },
        htmlInput: { maxLength: 256 },
      }}
    />
  );
}
