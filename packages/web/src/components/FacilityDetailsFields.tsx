import { SimpleGrid, Textarea, TextInput } from '@mantine/core';

export type FacilityField = 'facility_name' | 'address' | 'phone' | 'email';
export type FacilityDetails = Record<FacilityField, string>;

interface FacilityDetailsFieldsProps {
  value: FacilityDetails;
  onChange: (field: FacilityField, value: string) => void;
  errors?: Partial<Record<string, string>>;
}

/**
 * A project's facility name, address, phone and contact email, as the superadmin's project forms and the project
 * Admin app's details page edit them (limits as in the shared project schema).
 */
export function FacilityDetailsFields({ value, onChange, errors = {} }: FacilityDetailsFieldsProps) {
  return (
    <>
      <TextInput
        label="Facility name"
        name="facility_name"
        maxLength={200}
        value={value.facility_name}
        onChange={(event) => onChange('facility_name', event.currentTarget.value)}
        error={errors.facility_name}
      />
      <Textarea
        label="Address"
        name="address"
        maxLength={500}
        resize="vertical"
        rows={3}
        value={value.address}
        onChange={(event) => onChange('address', event.currentTarget.value)}
        error={errors.address}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label="Phone"
          name="phone"
          type="tel"
          autoComplete="off"
          maxLength={50}
          value={value.phone}
          onChange={(event) => onChange('phone', event.currentTarget.value)}
          error={errors.phone}
        />
        <TextInput
          label="Contact email"
          name="email"
          type="email"
          autoComplete="off"
          maxLength={254}
          description="Shown to members and used as the reply-to address of the project's emails."
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={value.email}
          onChange={(event) => onChange('email', event.currentTarget.value)}
          error={errors.email}
        />
      </SimpleGrid>
    </>
  );
}
